/// A key or tensor name as an error message shows it: quoted, with control characters escaped (Swift's
/// `debugDescription`), and cut after 100 characters: a corrupt length can make a name of megabytes of any bytes.
func quoted(_ name: String) -> String {
    let limit = 100
    guard name.utf8.count > limit else { return name.debugDescription }
    return String(name.prefix(limit)).debugDescription + "… (\(name.count) characters)"
}
