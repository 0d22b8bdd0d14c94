#!/usr/bin/env bash
# Runs the concurrency tests under the thread sanitizer: the ThreadPool (spin-then-park workers that
# receive the job through atomics), the session request machinery on the scripted provider (streams,
# cancellation, concurrent-request errors, tool loops), and three sessions generating at once on one
# loaded SmolLM2 (shared model and process-wide pool, one KV cache each). Any TSan report fails the run.
# Release build: TSan still instruments every access, and a debug forward pass under TSan takes minutes
# per token. Measured from clean on 2 cores at load ~10: 8m45s (build ~6 min, three sessions 165 s).
#   SCRATCH   build directory (default .build/tsan; kept apart from the normal build's)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# Fail on the first report, with both stacks of every race.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
suites='ThreadPoolTests|ResponseStreamTests|SessionErrorTests|SessionTranscriptTests|ToolLoopTests'
suites+='|RealModelScenarioTests/concurrentSessionsOnOneModelGiveTheSameGreedyAnswers'
exec swift test -c release --sanitize=thread --scratch-path "${SCRATCH:-.build/tsan}" --filter "$suites" "$@"
