import LMGrammar
import Testing

/// Each JSON Schema keyword the reader enforces, as texts the grammar must accept or refuse
/// (the verdicts are JSON Schema's; the corpus and case suites check generated values with
/// Python's jsonschema).
@Suite("JSON Schema keywords")
struct JSONSchemaKeywordTests {
    @Test("keywords are enforced", arguments: [
        // type lists and untyped schemas
        (#"{"type":["integer","null"]}"#, "null", true), (#"{"type":["integer","null"]}"#, "1.5", false),
        (#"{"properties":{"a":{"type":"integer"}},"required":["a"]}"#, #"{"a":1}"#, true),
        (#"{"properties":{"a":{"type":"integer"}},"required":["a"]}"#, #"{"a":true}"#, false),
        (#"{"items":{"type":"integer"}}"#, "[1,2]", true), (#"{"items":{"type":"integer"}}"#, #"["x"]"#, false),
        // enum and const of any value
        (#"{"enum":[1,"a",null,true,{"k":[1]}]}"#, #"{"k":[1]}"#, true), (#"{"enum":[1,"a",null,true]}"#, "false", false),
        (#"{"type":"string","enum":[1,"a"]}"#, "1", false), (#"{"const":false}"#, "false", true),
        // numbers
        (#"{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}"#, "0.5", true),
        (#"{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}"#, "0", false),
        (#"{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}"#, "1", false),
        (#"{"type":"number","minimum":1000,"exclusiveMinimum":true}"#, "1000", false),
        (#"{"type":"number","minimum":1000,"exclusiveMinimum":true}"#, "1000.5", true),
        (#"{"type":"integer","multipleOf":3}"#, "-12", true), (#"{"type":"integer","multipleOf":3}"#, "13", false),
        (#"{"type":"number","multipleOf":1}"#, "4", true), (#"{"type":"number","multipleOf":1}"#, "4.5", false),
        // strings
        (#"{"type":"string","minLength":2,"maxLength":3}"#, #""ab""#, true), (#"{"type":"string","minLength":2,"maxLength":3}"#, #""a""#, false),
        (#"{"type":"string","maxLength":2}"#, #""é🐢""#, true), (#"{"type":"string","maxLength":2}"#, #""abc""#, false),
        (#"{"type":"string","pattern":"ab"}"#, #""xxabyy""#, true), (#"{"type":"string","pattern":"^ab"}"#, #""xab""#, false),
        (#"{"type":"string","pattern":"^[a-z]+$","maxLength":3}"#, #""abc""#, true),
        (#"{"type":"string","pattern":"^[a-z]+$","maxLength":3}"#, #""abcd""#, false),
        // arrays
        (#"{"type":"array","prefixItems":[{"type":"string"}],"items":false}"#, #"["a"]"#, true),
        (#"{"type":"array","prefixItems":[{"type":"string"}],"items":false}"#, #"["a",1]"#, false),
        (#"{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"integer"}}"#, #"["a",1,2]"#, true),
        (#"{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"integer"}}"#, #"["a","b"]"#, false),
        (#"{"type":"array","items":{"enum":["a","b","c"]},"uniqueItems":true}"#, #"["a","c"]"#, true),
        (#"{"type":"array","items":{"enum":["a","b","c"]},"uniqueItems":true}"#, #"["a","a"]"#, false),
        (#"{"type":"array","items":{"type":"string"},"uniqueItems":true}"#, #"["a","b"]"#, false),
        (#"{"type":"array","contains":{"type":"integer"}}"#, #"[1,"a"]"#, true),
        (#"{"type":"array","contains":{"type":"integer"}}"#, #"["a"]"#, false),
        // objects
        (#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}"#, #"{"a":"x","b":1,"c":2}"#, true),
        (#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}"#, #"{"a":"x","b":"y"}"#, false),
        (#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}"#, #"{"a":"x","a":1}"#, false),
        (#"{"type":"object","patternProperties":{"^x-":{"type":"boolean"}},"additionalProperties":false}"#, #"{"x-a":true}"#, true),
        (#"{"type":"object","patternProperties":{"^x-":{"type":"boolean"}},"additionalProperties":false}"#, #"{"y":true}"#, false),
        (#"{"type":"object","properties":{"a":{},"b":{}},"maxProperties":1}"#, #"{"a":1}"#, true),
        (#"{"type":"object","properties":{"a":{},"b":{}},"maxProperties":1}"#, #"{"a":1,"b":2}"#, false),
        (#"{"type":"object","properties":{"a":{},"b":{}},"minProperties":1}"#, "{}", false),
        (#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"dependentRequired":{"a":["b"]}}"#, #"{"a":1,"b":2}"#, true),
        (#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"dependentRequired":{"a":["b"]}}"#, #"{"a":1}"#, false),
        (#"{"type":"object","properties":{"ab":{},"c":{}},"propertyNames":{"maxLength":1}}"#, #"{"ab":1}"#, false),
        (#"{"type":"object","properties":{"ab":{},"c":{}},"propertyNames":{"maxLength":1}}"#, #"{"c":1}"#, true),
        // combinators
        (#"{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},{"properties":{"b":{"type":"string"}},"required":["b"]}]}"#, #"{"a":1,"b":"x"}"#, true),
        (#"{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},{"properties":{"b":{"type":"string"}},"required":["b"]}]}"#, #"{"a":1}"#, false),
        (#"{"oneOf":[{"type":"integer"},{"type":"string"}]}"#, #""x""#, true),
        (#"{"oneOf":[{"properties":{"k":{"const":"a"}},"required":["k"]},{"properties":{"k":{"const":"b"},"v":{"type":"integer"}},"required":["k","v"]}]}"#, #"{"k":"b","v":1}"#, true),
        (#"{"oneOf":[{"type":"object","additionalProperties":false,"properties":{"env":{"type":"string"}}},{"type":"object","additionalProperties":false,"properties":{"file":{"type":"string"}}}]}"#, #"{"env":"x"}"#, true),
        (#"{"oneOf":[{"type":"object","additionalProperties":false,"properties":{"env":{"type":"string"}}},{"type":"object","additionalProperties":false,"properties":{"file":{"type":"string"}}}]}"#, "{}", false),
        (#"{"type":"string","not":{"enum":["a","b"]}}"#, #""c""#, true), (#"{"type":"string","not":{"enum":["a","b"]}}"#, #""a""#, false),
        // overlapping patterns: each branch minus the strings the other's pattern matches
        (#"{"oneOf":[{"type":"string","pattern":"^a"},{"type":"string","pattern":"b$"}]}"#, #""ax""#, true),
        (#"{"oneOf":[{"type":"string","pattern":"^a"},{"type":"string","pattern":"b$"}]}"#, #""xb""#, true),
        (#"{"oneOf":[{"type":"string","pattern":"^a"},{"type":"string","pattern":"b$"}]}"#, #""ab""#, false),
        (#"{"oneOf":[{"type":"string","pattern":"^a"},{"type":"string","pattern":"b$"}]}"#, #""xx""#, false),
        (#"{"oneOf":[{"type":"object","additionalProperties":false,"required":["import"],"properties":{"import":{"type":"string","pattern":"^[^:]+:[^:]+:[^:]+$"}}},{"type":"object","additionalProperties":false,"required":["import"],"properties":{"import":{"type":"string","pattern":"^[^@]+@[^@]+$"}}}]}"#, #"{"import":"r:b:p"}"#, true),
        (#"{"oneOf":[{"type":"object","additionalProperties":false,"required":["import"],"properties":{"import":{"type":"string","pattern":"^[^:]+:[^:]+:[^:]+$"}}},{"type":"object","additionalProperties":false,"required":["import"],"properties":{"import":{"type":"string","pattern":"^[^@]+@[^@]+$"}}}]}"#, #"{"import":"p@s"}"#, true),
        (#"{"oneOf":[{"type":"object","additionalProperties":false,"required":["import"],"properties":{"import":{"type":"string","pattern":"^[^:]+:[^:]+:[^:]+$"}}},{"type":"object","additionalProperties":false,"required":["import"],"properties":{"import":{"type":"string","pattern":"^[^@]+@[^@]+$"}}}]}"#, #"{"import":"r:b:p@s"}"#, false),
        (#"{"type":"string","not":{"pattern":"^a"}}"#, #""ba""#, true), (#"{"type":"string","not":{"pattern":"^a"}}"#, #""""#, true),
        (#"{"type":"string","not":{"pattern":"^a"}}"#, #""ab""#, false),
        (#"{"type":"string","not":{"pattern":"\""}}"#, #""a\"b""#, false), (#"{"type":"string","not":{"pattern":"\""}}"#, #""ab""#, true),
        (#"{"type":"string","not":{"pattern":"é"}}"#, #""caf\u00e9""#, false), (#"{"type":"string","not":{"pattern":"é"}}"#, #""cafe""#, true),
        (#"{"enum":["ab","ba"],"not":{"pattern":"^a"}}"#, #""ba""#, true), (#"{"enum":["ab","ba"],"not":{"pattern":"^a"}}"#, #""ab""#, false),
        (#"{"type":"integer","if":{"minimum":10},"then":{"multipleOf":10},"else":{"maximum":5}}"#, "20", true),
        (#"{"type":"integer","if":{"minimum":10},"then":{"multipleOf":10},"else":{"maximum":5}}"#, "15", false),
        (#"{"type":"integer","if":{"minimum":10},"then":{"multipleOf":10},"else":{"maximum":5}}"#, "7", false),
        (#"{"type":"integer","if":{"minimum":10},"then":{"multipleOf":10},"else":{"maximum":5}}"#, "4", true),
        // references
        (##"{"$defs":{"a":{"type":"object","properties":{"b":{"type":"boolean"}}}},"properties":{"p":{"$ref":"#/$defs/a/properties/b"}},"required":["p"]}"##, #"{"p":true}"#, true),
        (##"{"$defs":{"a b":{"type":"integer"}},"$ref":"#/$defs/a%20b"}"##, "3", true),
        (##"{"$defs":{"n":{"$anchor":"num","type":"integer"}},"$ref":"#num"}"##, #""x""#, false),
    ])
    func enforced(schema: String, json: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(try Grammar(jsonSchema: schema), json) == valid)
    }

    @Test("unsatisfiable schemas say where", arguments: [
        #"{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"],"additionalProperties":false}"#,
        #"{"type":"string","minLength":3,"maxLength":2}"#,
        #"{"allOf":[{"type":"string"},{"type":"integer"}]}"#,
    ])
    func unsatisfiable(schema: String) {
        #expect {
            try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case let .emptyLanguage(reason) = error as? GrammarError else { return false }
            return reason.contains("schema at")
        }
    }

    /// A tester's schema had only infinite values (its property is the whole schema, required): it was accepted by
    /// the reader and refused at request time, after the model loaded, without a pointer.
    @Test("schemas whose every value contains itself are refused by the reader with the cycle's pointers", arguments: [
        (##"{"type":"object","properties":{"a":{"$ref":"#"}},"required":["a"]}"##, #""""#),
        (##"{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}},"required":["next"]}},"type":"array","minItems":1,"items":{"$ref":"#/$defs/n"}}"##,
         #""/$defs/n""#),
        (##"{"type":"array","minItems":2,"prefixItems":[{"type":"null"},{"$ref":"#"}]}"##, #""""#),
    ])
    func infiniteValuesAreRefused(schema: String, pointer: String) {
        #expect {
            try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case let .emptyLanguage(reason) = error as? GrammarError else { return false }
            return reason.contains("no value is finite") && reason.contains(pointer)
        }
    }

    @Test("recursive schemas with a way out still read", arguments: [
        ##"{"type":"object","properties":{"a":{"$ref":"#"}}}"##,
        ##"{"type":"object","properties":{"a":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["a"]}"##,
        ##"{"type":"array","items":{"$ref":"#"}}"##,
        ##"{"$defs":{"n":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/n"}}},"required":["kids"]}},"$ref":"#/$defs/n"}"##,
    ])
    func recursionWithAWayOut(schema: String) throws {
        _ = try Grammar(jsonSchema: schema)
    }
}
