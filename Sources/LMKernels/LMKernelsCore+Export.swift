// The tensor formats (block layouts, reference dequantization, half conversions), the weight view
// and the activation formats are defined in LMKernelsCore, which every kernel module (portable
// and per instruction set) shares; they are part of LMKernels' API.
@_exported import LMKernelsCore
