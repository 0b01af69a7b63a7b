/// A group thread's members and its lead, who gets messages that name no member.
public struct GroupInfo: Sendable {
    /// The lead member's name.
    public var lead: String
    /// The members in the order the export lists them.
    public var members: [GroupMember]

    /// A group.
    public init(lead: String, members: [GroupMember]) {
        self.lead = lead
        self.members = members
    }
}
