import Privacy

/// `run.prompts` of a report, `options.prompts` of a state: the set's name (a token, as the
/// set's reader requires) and the SHA-256 of its file.
extension PromptSetIdentity: Codable {
    enum CodingKeys: String, CodingKey { case name, sha256 }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(TokenLabel.self, forKey: .name).text
        let digest = try container.decode(SHA256Hex.self, forKey: .sha256).text
        guard ReportLabel(token: name, salt: LabelSalt(bytes: [])).text == name, SHA256Hex.isDigest(digest) else {
            throw StateFormatError(at: container.codingPath, "not a prompt set's name and SHA-256")
        }
        self.init(name: name, sha256: digest)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(sha256, forKey: .sha256)
    }
}
