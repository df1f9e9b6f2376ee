import Foundation

/// The repository the tests run from, found from this file's path (Tests/EmendTestSupport/):
/// the C sources, fixtures and scripts the tests build and run.
public enum TestRepository {
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}
