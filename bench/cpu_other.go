//go:build !unix

package main

import "time"

// selfCPU returns 0: the CPU rows need getrusage, which this system lacks.
func selfCPU() time.Duration { return 0 }
