// Package filestamp names a file as it is now, for the answers the host
// keeps across processes while the files they were computed from stay as
// they were: its device, inode, mode, size and modification and change
// times. A write to a file changes its change time, which cannot be set
// back, and an entry added, removed or renamed in a directory changes the
// directory's.
package filestamp
