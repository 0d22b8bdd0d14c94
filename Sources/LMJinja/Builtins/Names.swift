/// The names templates can use: filters, tests, methods, and what jinja2 has beyond them.
enum Names {
    /// Filters LMJinja implements (jinja2's, with Hugging Face's `tojson`).
    static let filters: Set<String> = [
        "abs", "attr", "batch", "capitalize", "center", "count", "d", "default", "dictsort", "e", "escape",
        "first", "float", "forceescape", "format", "indent", "int", "items", "join", "last", "length",
        "list", "lower", "map", "max", "min", "reject", "rejectattr", "replace", "reverse", "round", "safe",
        "select", "selectattr", "slice", "sort", "string", "sum", "title", "tojson", "trim",
        "truncate", "unique", "upper", "wordcount",
    ]

    /// Every filter jinja2 3.1 defines; those not in `filters` are unsupported: `random` (not
    /// reproducible), `groupby` (its named-tuple results), `striptags` (needs the HTML entity
    /// table), and HTML/URL formatting no chat template uses.
    static let jinja2Filters: Set<String> = filters.union([
        "filesizeformat", "groupby", "pprint", "random", "striptags", "urlencode", "urlize", "wordwrap", "xmlattr",
    ])

    /// jinja2's tests, all implemented.
    static let tests: Set<String> = [
        "odd", "even", "divisibleby", "defined", "undefined", "filter", "test", "none", "boolean", "false",
        "true", "integer", "float", "lower", "upper", "string", "mapping", "number", "sequence", "iterable",
        "callable", "sameas", "escaped", "in", "==", "eq", "equalto", "!=", "ne", ">", "gt", "greaterthan",
        "ge", ">=", "<", "lt", "lessthan", "<=", "le",
    ]

    static let stringMethods: Set<String> = [
        "capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format",
        "format_map", "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier",
        "islower", "isnumeric", "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower",
        "lstrip", "maketrans", "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex",
        "rjust", "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase",
        "title", "translate", "upper", "zfill",
    ]

    /// Methods `Markup` adds to `str`.
    static let markupMethods: Set<String> = ["escape", "striptags", "unescape"]

    static let dictMethods: Set<String> = ["copy", "fromkeys", "get", "items", "keys", "values"]
    static let mutatingDictMethods: Set<String> = ["clear", "pop", "popitem", "setdefault", "update"]
    static let sequenceMethods: Set<String> = ["count", "index"]
    static let mutatingListMethods: Set<String> = ["append", "clear", "extend", "insert", "pop", "remove", "reverse", "sort"]
    static let intMethods: Set<String> = ["as_integer_ratio", "bit_count", "bit_length", "conjugate", "from_bytes", "to_bytes"]
    static let floatMethods: Set<String> = ["as_integer_ratio", "conjugate", "fromhex", "hex", "is_integer"]

    /// Python methods that exist on some value but that LMJinja does not implement: calling one
    /// fails when the template loads.
    static let unsupportedMethods: Set<String> = [
        "encode", "maketrans", "translate", "format_map", "unescape", "striptags", "casefold",
        "as_integer_ratio", "from_bytes", "to_bytes", "fromhex", "hex", "fromkeys",
    ]

    /// jinja2 globals LMJinja does not provide (random text, stateful helpers).
    static let unsupportedGlobals: Set<String> = ["lipsum", "cycler", "joiner"]
}
