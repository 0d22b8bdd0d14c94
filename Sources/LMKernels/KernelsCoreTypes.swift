import LMKernelsCore

/// The weight view and activation formats are defined in LMKernelsCore, which every kernel
/// module (portable and per instruction set) shares; these names are LMKernels' public API.
public typealias WeightMatrix = LMKernelsCore.WeightMatrix
public typealias ActivationFormat = LMKernelsCore.ActivationFormat
