/// Coupang's best-seller categories, by id and name (the partners guide's list).
public enum CoupangCategories {
    public static let all: [(id: Int, name: String)] = [
        (1001, "여성패션"), (1002, "남성패션"), (1010, "뷰티"), (1011, "출산/유아동"), (1012, "식품"), (1013, "주방용품"),
        (1014, "생활용품"), (1015, "홈인테리어"), (1016, "가전디지털"), (1017, "스포츠/레저"), (1018, "자동차용품"),
        (1019, "도서/음반/DVD"), (1020, "완구/취미"), (1021, "문구/오피스"), (1024, "헬스/건강식품"), (1025, "국내여행"),
        (1026, "해외여행"), (1029, "반려동물용품"), (1030, "유아동패션"),
    ]

    /// `shopy popular --source coupang`'s sections when none are given or saved.
    public static let defaultSections = ["1016", "1012", "1029"]

    /// The category a section names: its id, or its name (spaces and case ignored; a name's
    /// part before or after `/` too, when only one category has it).
    public static func category(_ text: String) -> (id: Int, name: String)? {
        let wanted = fold(text)
        if let id = Int(wanted), let found = all.first(where: { $0.id == id }) { return found }
        if let found = all.first(where: { fold($0.name) == wanted }) { return found }
        let partial = all.filter { $0.name.split(separator: "/").contains { fold(String($0)) == wanted } }
        return partial.count == 1 ? partial[0] : nil
    }

    /// Every category as `1016 가전디지털`, for help and errors.
    public static var listing: String { all.map { "\($0.id) \($0.name)" }.joined(separator: ", ") }

    static func fold(_ text: String) -> String {
        String(text.lowercased().filter { !$0.isWhitespace })
    }
}
