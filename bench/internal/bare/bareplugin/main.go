// Command bareplugin is the bare go-plugin echo plugin the benchmarks
// compare modkit with. A host starts it; run by hand it refuses.
package main

import "github.com/modkit/modkit/bench/internal/bare"

func main() { bare.Serve() }
