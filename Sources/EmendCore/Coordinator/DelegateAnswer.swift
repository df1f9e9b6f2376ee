/// The engine's answer to one delegate call.
public enum DelegateAnswer: Sendable {
    case contexts([ContextDescription])
    /// Applied; the text really inserted (nil: as proposed).
    case replaced(String?)
    case refused
    case rects([Rect])
    /// The rectangles of each range of a `requestsRects`, in its order.
    case rectBatch([[Rect]])
    case preview(UInt)
    case presented(PresentedAction)
    case done
    case failed(EmendError)
    /// The callback is not implemented by the engine.
    case unsupported
}
