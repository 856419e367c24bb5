// Package testserver starts the servers tests need (Redis, HAProxy) on
// loopback, on free ports, in a test's temporary directory, and stops them
// at the test's cleanup.
//
// A test that needs a program that is not installed is skipped, with a
// message naming the program, unless the CI environment variable is set:
// then it fails, so that CI never passes by skipping.
package testserver
