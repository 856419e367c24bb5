// Package modchange says what a version of a mod changes against the
// version a person accepted, one change a line: the tools it adds and
// removes, the permissions it widens or narrows (each kind: writing the
// workspace, connect targets, programs run, paths read, environment
// variables received) and the approval rules it loosens or tightens.
//
// modhost get and update print the changes of a version against the one
// mods.lock pins, and ask before a version that [Change.NeedsConsent]: one
// that widens a permission or loosens an approval rule, so that the mod
// may do more without a person's say.
//
// # Words
//
// The permission words are the manifest's (manifest.Permissions.Lines):
// "writes the workspace", "connects to", "runs", "reads", "receives",
// "any host", "any program". A change reads as its kind and what changed:
//
//	adds tool weather_alerts
//	widens: connects to any host, not only api.weather.example:443
//	widens: runs git
//	narrows: no longer receives WEATHER_TOKEN
//	loosens approval: weather_delete no longer asks a person before its calls
package modchange
