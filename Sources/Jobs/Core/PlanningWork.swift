/// What a job read of one thread while planning it, counted so that tests can hold every job to
/// a cost linear in the thread's length by counting work, never by timing it.
///
/// `messagesRead` counts one per message a job's pass visits, plus what its indexes read to be
/// built (`ThreadAttributions.reads`), plus one per earlier message gathered into an item (a
/// push's batched replies). A job that searched the thread from each message would count the
/// messages it searched too, and grow with the square of the thread's length.
struct PlanningWork: Sendable, Equatable {
    var messagesRead = 0
}
