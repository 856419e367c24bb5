// Package bare is the baseline modkit is measured against: a minimal
// go-plugin gRPC plugin with one unary method that echoes [echo.Payload].
//
// # Wire
//
// The service is registered by hand, without generated code: its one method
// takes a protobuf BytesValue holding the JSON input and returns a
// StringValue holding the reply, so the baseline pays for protobuf and gRPC
// exactly as a generated service would, and for nothing else.
//
// # Processes
//
// The plugin binary is [Serve]'s caller in package bareplugin. [Start] runs it
// with the same security settings modkit uses: the binary's SHA-256 is
// checked before it runs, and host and plugin talk over mutual TLS.
package bare
