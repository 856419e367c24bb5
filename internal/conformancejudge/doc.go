// Package conformancejudge judges a run of the official MCP conformance
// suite (`conformance server --requirements REV`) by the checks that ran,
// for .ci/conformance.sh (through the command cmd/conformancejudge).
//
// # Why not the suite's own verdict
//
// The suite marks a scenario ✓ when none of its checks failed, so a
// scenario whose checks were all SKIPPED, WARNING or INFO ("0 passed")
// reads as a pass, and a run that printed no summary, or left scenarios
// out, raises no complaint. [Judge] holds a run to more:
//
//   - the suite's exit status is 0;
//   - the summary names exactly the server scenarios of the revision's
//     list (`conformance list --server --requirements REV`, read by
//     [ParseList]): the scored ones and the ones run but not scored
//     (extension, pending, added after the release);
//   - every scenario has no failed check and at least one passed check,
//     unless [NoCheckPasses] names it with the reason.
package conformancejudge
