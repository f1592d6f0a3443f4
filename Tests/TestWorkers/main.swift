import Foundation
import TestSupport

// The storage tests' helper processes (not tests): `TestWorkers <worker>` with the worker's
// variables set by the test that starts it (TestSupport's TestWorker).
let environment = ProcessInfo.processInfo.environment
switch CommandLine.arguments.dropFirst().first.flatMap(TestWorker.init(rawValue:)) {
case .crashVictim: CrashVictim.run(environment: environment)
case .session: SessionWorker.run(environment: environment)
case .migration: MigrationWorker.run(environment: environment)
case .host: HostWorker.run(environment: environment)
case nil:
    FileHandle.standardError.write(
        Data("usage: TestWorkers \(TestWorker.allCases.map(\.rawValue).joined(separator: "|"))\n".utf8))
    exit(2)
}
