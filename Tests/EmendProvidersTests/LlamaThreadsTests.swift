import Foundation
import XCTest
import EmendTestSupport

/// How many threads a run of the llama plugin uses (providers/llama/threads.c), given any load,
/// affinity and CPU quota: threads_check (Tests/Fixtures/llama) runs the plugin's own functions
/// on the figures a case gives. More threads than free cores make ggml's threads spin at their
/// barrier for one that cannot run (15 to 30 times slower on a busy 2-core machine), so "auto"
/// must take no more than the free cores, and never fewer than one. Needs no llama.cpp.
final class LlamaThreadsTests: XCTestCase {
    static let check: Result<String, Error> = Result {
        let root = PluginBuilder.repoRoot
        let out = NSTemporaryDirectory() + "emend-llama-threads-\(getpid())"
        try TestProcess.run("cc", TestCompiler.flags + ["-I", root + "/providers/llama", root + "/Tests/Fixtures/llama/threads_check.c",
                                                        root + "/providers/llama/threads.c", "-o", out])
        return out
    }

    private func ask(_ arguments: String...) throws -> String {
        try TestProcess.run(try Self.check.get(), arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// threads_choose(setting, cap, usable cores, own runnable threads, procs_running readings).
    private func choose(setting: Int = 0, cap: Int = 8, usable: Int, running: [Int]) throws -> Int {
        Int(try ask(["choose", "\(setting)", "\(cap)", "\(usable)", "1"] + running.map(String.init)))!
    }

    private func ask(_ arguments: [String]) throws -> String {
        try TestProcess.run(try Self.check.get(), arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAutoTakesTheCoresNoOtherThreadKeepsBusy() throws {
        // Quiet: only the run's own thread is runnable.
        XCTAssertEqual(try choose(usable: 2, running: [1, 1, 1, 1, 1, 1, 1, 1]), 2)
        XCTAssertEqual(try choose(usable: 4, running: [1, 1, 1, 1]), 4)
        // One CPU hog beside it: one core fewer; on 2 cores a single thread, so no barrier at all.
        XCTAssertEqual(try choose(usable: 2, running: [2, 2, 2, 2, 2, 2, 2, 2]), 1)
        XCTAssertEqual(try choose(usable: 4, running: [2, 2, 2, 2]), 3)
        // Far more runnable threads than cores (a loaded shared machine): one thread, never zero.
        XCTAssertEqual(try choose(usable: 2, running: [45, 44, 47, 46]), 1)
        XCTAssertEqual(try choose(usable: 1, running: [1]), 1)
    }

    func testAMomentsBurstDoesNotCountButAProcessBusyHalfTheTimeDoes() throws {
        XCTAssertEqual(try choose(usable: 2, running: [1, 1, 1, 1, 1, 1, 1, 2]), 2, "one reading in eight")
        XCTAssertEqual(try choose(usable: 2, running: [1, 2, 1, 2, 1, 2, 1, 2]), 1, "busy half the looks: a thread would wait")
        XCTAssertEqual(try choose(usable: 4, running: [3, 3, 2, 4]), 2)
    }

    func testTheCapTheSettingAndMissingReadings() throws {
        XCTAssertEqual(try choose(cap: 8, usable: 32, running: [1, 1]), 8, "auto takes at most THREADS_AUTO_MAX")
        XCTAssertEqual(try choose(cap: 8, usable: 32, running: [26, 26]), 7, "free cores of a big machine, not of the cap")
        XCTAssertEqual(try choose(setting: 3, usable: 2, running: [40, 40]), 3, "a number in threads is taken as it is")
        XCTAssertEqual(try choose(usable: 2, running: []), 2, "no reading (no /proc/stat): the usable cores")
        XCTAssertEqual(try choose(usable: 2, running: [-1, 2, -1, 2]), 1, "unreadable looks are left out")
    }

    func testUsableCoresFollowTheAffinityMaskAndTheCgroupQuota() throws {
        XCTAssertEqual(try ask("usable", "2", "0", "8"), "2", "taskset to 2 of 8 cores")
        XCTAssertEqual(try ask("usable", "8", "2", "8"), "2", "a quota of 2 cores")
        XCTAssertEqual(try ask("usable", "2", "4", "8"), "2", "a quota above the mask")
        XCTAssertEqual(try ask("usable", "0", "0", "6"), "6", "no mask: the online cores")
        XCTAssertEqual(try ask("usable", "0", "0", "0"), "1")
        XCTAssertEqual(try ask("cpu-max", "max 100000"), "0")
        XCTAssertEqual(try ask("cpu-max", "150000 100000"), "2", "1.5 cores: a second thread has half a core")
        XCTAssertEqual(try ask("cpu-max", "100000 100000"), "1")
        XCTAssertEqual(try ask("cpu-max", "-1 100000"), "0", "cgroup v1's no limit")
        XCTAssertEqual(try ask("cpu-max", "garbage"), "0")
    }

    func testProcsRunningIsReadFromProcStat() throws {
        let stat = "cpu  10 0 20 300 0 0 0 0 0 0\ncpu0 5 0 10 150 0 0 0 0 0 0\nintr 12345 0 1\nctxt 99\n"
            + "btime 1700000000\nprocesses 4242\nprocs_running 3\nprocs_blocked 0\nsoftirq 1 2 3\n"
        XCTAssertEqual(try ask("procs-running", stat), "3")
        XCTAssertEqual(try ask("procs-running", "cpu  1 2 3\nprocs_blocked 0\n"), "-1")
        XCTAssertEqual(try ask("procs-running", ""), "-1")
    }

    /// This machine, read by the plugin's own reader: the affinity mask's cores (what nproc
    /// counts) and eight readings of procs_running, each counting at least the reader.
    func testTheMachineIsRead() throws {
        let sample = try ask("sample").split(separator: " ").map(String.init)
        XCTAssertEqual(sample.prefix(4).map { $0 }, ["usable", sample[1], "looks", "8"], sample.joined(separator: " "))
        let nproc = try TestProcess.run("nproc").trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertLessThanOrEqual(Int(sample[1])!, Int(nproc)!)
        XCTAssertGreaterThanOrEqual(Int(sample[1])!, 1)
        XCTAssertEqual(sample[4], "running")
        XCTAssertEqual(sample.count, 13, sample.joined(separator: " "))
        XCTAssertTrue(sample.dropFirst(5).allSatisfy { (Int($0) ?? 0) >= 1 }, sample.joined(separator: " "))
    }
}
