module github.com/itchyny/gojq

go 1.24.0

require (
	github.com/itchyny/astgen-go v0.0.0-20250520171007-4331c963041e // indirect
	github.com/itchyny/timefmt-go v0.1.8 // indirect
)
