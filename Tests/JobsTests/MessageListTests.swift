import Export
import Testing
@testable import Jobs

/// A thread's messages in blocks: the same sequence as an array, and a copy unchanged by what is
/// appended to the list it came from (a piece planned while the reader goes on).
@Suite struct MessageListTests {
    static func message(_ index: Int) -> MessageRecord {
        MessageRecord(thread: "t1", id: "m\(index)", from: index % 3 == 0 ? .person : .agent("Coach"))
    }

    @Test(arguments: [0, 1, MessageList.blockSize - 1, MessageList.blockSize, MessageList.blockSize + 1, 3 * MessageList.blockSize + 17])
    func itHoldsWhatAnArrayHolds(count: Int) {
        let array = (0..<count).map(Self.message)
        var list = MessageList()
        for message in array { list.append(message) }
        #expect(list.count == count)
        #expect(list.map(\.id) == array.map(\.id))
        #expect(MessageList(array).map(\.id) == array.map(\.id))
        #expect(list.array.map(\.id) == array.map(\.id))
        #expect(list.indices == array.indices)
        if count > 0 {
            #expect(list[count - 1].id == "m\(count - 1)")
            #expect(list.last?.id == array.last?.id)
        }
    }

    @Test func aCopyKeepsWhatItHadWhileTheListGrows() {
        var list = MessageList((0..<(MessageList.blockSize + 10)).map(Self.message))
        let copy = list
        for index in list.count..<(list.count + MessageList.blockSize) { list.append(Self.message(index)) }
        #expect(copy.count == MessageList.blockSize + 10)
        #expect(copy.last?.id == "m\(MessageList.blockSize + 9)")
        #expect(list.count == 2 * MessageList.blockSize + 10)
        var grown = copy
        grown.append(Self.message(-1))
        #expect(copy.count == MessageList.blockSize + 10 && grown.last?.id == "m-1")
        #expect(list[MessageList.blockSize + 10].id == "m\(MessageList.blockSize + 10)")
    }

    @Test func anArrayLiteralIsAList() {
        let list: MessageList = [Self.message(1), Self.message(2)]
        #expect(list.map(\.id) == ["m1", "m2"])
        #expect(MessageList().isEmpty)
    }
}
