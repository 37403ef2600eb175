// Code generated; DO NOT EDIT.

//go:generate go run ctc_extra_gen.go
//go:generate go fmt ctc_extra.go

package ctc

const (

	// ForegroundBlack existing
	// ForegroundBlack = ForegroundBlack

	// ForegroundRed existing
	// ForegroundRed = ForegroundRed

	// ForegroundGreen existing
	// ForegroundGreen = ForegroundGreen

	// ForegroundYellow existing
	// ForegroundYellow = ForegroundYellow

	// ForegroundBlue existing
	// ForegroundBlue = ForegroundBlue

	// ForegroundMagenta existing
	// ForegroundMagenta = ForegroundMagenta

	// ForegroundCyan existing
	// ForegroundCyan = ForegroundCyan

	// ForegroundWhite existing
	// ForegroundWhite = ForegroundWhite

	// ForegroundBrightBlack ForegroundBright | ForegroundBlack
	ForegroundBrightBlack = ForegroundBright | ForegroundBlack

	// ForegroundBrightRed ForegroundBright | ForegroundRed
	ForegroundBrightRed = ForegroundBright | ForegroundRed

	// ForegroundBrightGreen ForegroundBright | ForegroundGreen
	ForegroundBrightGreen = ForegroundBright | ForegroundGreen

	// ForegroundBrightYellow ForegroundBright | ForegroundYellow
	ForegroundBrightYellow = ForegroundBright | ForegroundYellow

	// ForegroundBrightBlue ForegroundBright | ForegroundBlue
	ForegroundBrightBlue = ForegroundBright | ForegroundBlue

	// ForegroundBrightMagenta ForegroundBright | ForegroundMagenta
	ForegroundBrightMagenta = ForegroundBright | ForegroundMagenta

	// ForegroundBrightCyan ForegroundBright | ForegroundCyan
	ForegroundBrightCyan = ForegroundBright | ForegroundCyan

	// ForegroundBrightWhite ForegroundBright | ForegroundWhite
	ForegroundBrightWhite = ForegroundBright | ForegroundWhite

	// BackgroundBlack existing
	// BackgroundBlack = BackgroundBlack

	// BackgroundRed existing
	// BackgroundRed = BackgroundRed

	// BackgroundGreen existing
	// BackgroundGreen = BackgroundGreen

	// BackgroundYellow existing
	// BackgroundYellow = BackgroundYellow

	// BackgroundBlue existing
	// BackgroundBlue = BackgroundBlue

	// BackgroundMagenta existing
	// BackgroundMagenta = BackgroundMagenta

	// BackgroundCyan existing
	// BackgroundCyan = BackgroundCyan

	// BackgroundWhite existing
	// BackgroundWhite = BackgroundWhite

	// BackgroundBrightBlack BackgroundBright | BackgroundBlack
	BackgroundBrightBlack = BackgroundBright | BackgroundBlack

	// BackgroundBrightRed BackgroundBright | BackgroundRed
	BackgroundBrightRed = BackgroundBright | BackgroundRed

	// BackgroundBrightGreen BackgroundBright | BackgroundGreen
	BackgroundBrightGreen = BackgroundBright | BackgroundGreen

	// BackgroundBrightYellow BackgroundBright | BackgroundYellow
	BackgroundBrightYellow = BackgroundBright | BackgroundYellow

	// BackgroundBrightBlue BackgroundBright | BackgroundBlue
	BackgroundBrightBlue = BackgroundBright | BackgroundBlue

	// BackgroundBrightMagenta BackgroundBright | BackgroundMagenta
	BackgroundBrightMagenta = BackgroundBright | BackgroundMagenta

	// BackgroundBrightCyan BackgroundBright | BackgroundCyan
	BackgroundBrightCyan = BackgroundBright | BackgroundCyan

	// BackgroundBrightWhite BackgroundBright | BackgroundWhite
	BackgroundBrightWhite = BackgroundBright | BackgroundWhite

	// ForegroundBlackBackgroundBlack ForegroundBlack | BackgroundBlack
	ForegroundBlackBackgroundBlack = ForegroundBlack | BackgroundBlack

	// ForegroundRedBackgroundBlack ForegroundRed | BackgroundBlack
	ForegroundRedBackgroundBlack = ForegroundRed | BackgroundBlack

	// ForegroundGreenBackgroundBlack ForegroundGreen | BackgroundBlack
	ForegroundGreenBackgroundBlack = ForegroundGreen | BackgroundBlack

	// ForegroundYellowBackgroundBlack ForegroundYellow | BackgroundBlack
	ForegroundYellowBackgroundBlack = ForegroundYellow | BackgroundBlack

	// ForegroundBlueBackgroundBlack ForegroundBlue | BackgroundBlack
	ForegroundBlueBackgroundBlack = ForegroundBlue | BackgroundBlack

	// ForegroundMagentaBackgroundBlack ForegroundMagenta | BackgroundBlack
	ForegroundMagentaBackgroundBlack = ForegroundMagenta | BackgroundBlack

	// ForegroundCyanBackgroundBlack ForegroundCyan | BackgroundBlack
	ForegroundCyanBackgroundBlack = ForegroundCyan | BackgroundBlack

	// ForegroundWhiteBackgroundBlack ForegroundWhite | BackgroundBlack
	ForegroundWhiteBackgroundBlack = ForegroundWhite | BackgroundBlack

	// ForegroundBrightBlackBackgroundBlack ForegroundBright | ForegroundBlack | BackgroundBlack
	ForegroundBrightBlackBackgroundBlack = ForegroundBright | ForegroundBlack | BackgroundBlack

	// ForegroundBrightRedBackgroundBlack ForegroundBright | ForegroundRed | BackgroundBlack
	ForegroundBrightRedBackgroundBlack = ForegroundBright | ForegroundRed | BackgroundBlack

	// ForegroundBrightGreenBackgroundBlack ForegroundBright | ForegroundGreen | BackgroundBlack
	ForegroundBrightGreenBackgroundBlack = ForegroundBright | ForegroundGreen | BackgroundBlack

	// ForegroundBrightYellowBackgroundBlack ForegroundBright | ForegroundYellow | BackgroundBlack
	ForegroundBrightYellowBackgroundBlack = ForegroundBright | ForegroundYellow | BackgroundBlack

	// ForegroundBrightBlueBackgroundBlack ForegroundBright | ForegroundBlue | BackgroundBlack
	ForegroundBrightBlueBackgroundBlack = ForegroundBright | ForegroundBlue | BackgroundBlack

	// ForegroundBrightMagentaBackgroundBlack ForegroundBright | ForegroundMagenta | BackgroundBlack
	ForegroundBrightMagentaBackgroundBlack = ForegroundBright | ForegroundMagenta | BackgroundBlack

	// ForegroundBrightCyanBackgroundBlack ForegroundBright | ForegroundCyan | BackgroundBlack
	ForegroundBrightCyanBackgroundBlack = ForegroundBright | ForegroundCyan | BackgroundBlack

	// ForegroundBrightWhiteBackgroundBlack ForegroundBright | ForegroundWhite | BackgroundBlack
	ForegroundBrightWhiteBackgroundBlack = ForegroundBright | ForegroundWhite | BackgroundBlack

	// ForegroundBlackBackgroundRed ForegroundBlack | BackgroundRed
	ForegroundBlackBackgroundRed = ForegroundBlack | BackgroundRed

	// ForegroundRedBackgroundRed ForegroundRed | BackgroundRed
	ForegroundRedBackgroundRed = ForegroundRed | BackgroundRed

	// ForegroundGreenBackgroundRed ForegroundGreen | BackgroundRed
	ForegroundGreenBackgroundRed = ForegroundGreen | BackgroundRed

	// ForegroundYellowBackgroundRed ForegroundYellow | BackgroundRed
	ForegroundYellowBackgroundRed = ForegroundYellow | BackgroundRed

	// ForegroundBlueBackgroundRed ForegroundBlue | BackgroundRed
	ForegroundBlueBackgroundRed = ForegroundBlue | BackgroundRed

	// ForegroundMagentaBackgroundRed ForegroundMagenta | BackgroundRed
	ForegroundMagentaBackgroundRed = ForegroundMagenta | BackgroundRed

	// ForegroundCyanBackgroundRed ForegroundCyan | BackgroundRed
	ForegroundCyanBackgroundRed = ForegroundCyan | BackgroundRed

	// ForegroundWhiteBackgroundRed ForegroundWhite | BackgroundRed
	ForegroundWhiteBackgroundRed = ForegroundWhite | BackgroundRed

	// ForegroundBrightBlackBackgroundRed ForegroundBright | ForegroundBlack | BackgroundRed
	ForegroundBrightBlackBackgroundRed = ForegroundBright | ForegroundBlack | BackgroundRed

	// ForegroundBrightRedBackgroundRed ForegroundBright | ForegroundRed | BackgroundRed
	ForegroundBrightRedBackgroundRed = ForegroundBright | ForegroundRed | BackgroundRed

	// ForegroundBrightGreenBackgroundRed ForegroundBright | ForegroundGreen | BackgroundRed
	ForegroundBrightGreenBackgroundRed = ForegroundBright | ForegroundGreen | BackgroundRed

	// ForegroundBrightYellowBackgroundRed ForegroundBright | ForegroundYellow | BackgroundRed
	ForegroundBrightYellowBackgroundRed = ForegroundBright | ForegroundYellow | BackgroundRed

	// ForegroundBrightBlueBackgroundRed ForegroundBright | ForegroundBlue | BackgroundRed
	ForegroundBrightBlueBackgroundRed = ForegroundBright | ForegroundBlue | BackgroundRed

	// ForegroundBrightMagentaBackgroundRed ForegroundBright | ForegroundMagenta | BackgroundRed
	ForegroundBrightMagentaBackgroundRed = ForegroundBright | ForegroundMagenta | BackgroundRed

	// ForegroundBrightCyanBackgroundRed ForegroundBright | ForegroundCyan | BackgroundRed
	ForegroundBrightCyanBackgroundRed = ForegroundBright | ForegroundCyan | BackgroundRed

	// ForegroundBrightWhiteBackgroundRed ForegroundBright | ForegroundWhite | BackgroundRed
	ForegroundBrightWhiteBackgroundRed = ForegroundBright | ForegroundWhite | BackgroundRed

	// ForegroundBlackBackgroundGreen ForegroundBlack | BackgroundGreen
	ForegroundBlackBackgroundGreen = ForegroundBlack | BackgroundGreen

	// ForegroundRedBackgroundGreen ForegroundRed | BackgroundGreen
	ForegroundRedBackgroundGreen = ForegroundRed | BackgroundGreen

	// ForegroundGreenBackgroundGreen ForegroundGreen | BackgroundGreen
	ForegroundGreenBackgroundGreen = ForegroundGreen | BackgroundGreen

	// ForegroundYellowBackgroundGreen ForegroundYellow | BackgroundGreen
	ForegroundYellowBackgroundGreen = ForegroundYellow | BackgroundGreen

	// ForegroundBlueBackgroundGreen ForegroundBlue | BackgroundGreen
	ForegroundBlueBackgroundGreen = ForegroundBlue | BackgroundGreen

	// ForegroundMagentaBackgroundGreen ForegroundMagenta | BackgroundGreen
	ForegroundMagentaBackgroundGreen = ForegroundMagenta | BackgroundGreen

	// ForegroundCyanBackgroundGreen ForegroundCyan | BackgroundGreen
	ForegroundCyanBackgroundGreen = ForegroundCyan | BackgroundGreen

	// ForegroundWhiteBackgroundGreen ForegroundWhite | BackgroundGreen
	ForegroundWhiteBackgroundGreen = ForegroundWhite | BackgroundGreen

	// ForegroundBrightBlackBackgroundGreen ForegroundBright | ForegroundBlack | BackgroundGreen
	ForegroundBrightBlackBackgroundGreen = ForegroundBright | ForegroundBlack | BackgroundGreen

	// ForegroundBrightRedBackgroundGreen ForegroundBright | ForegroundRed | BackgroundGreen
	ForegroundBrightRedBackgroundGreen = ForegroundBright | ForegroundRed | BackgroundGreen

	// ForegroundBrightGreenBackgroundGreen ForegroundBright | ForegroundGreen | BackgroundGreen
	ForegroundBrightGreenBackgroundGreen = ForegroundBright | ForegroundGreen | BackgroundGreen

	// ForegroundBrightYellowBackgroundGreen ForegroundBright | ForegroundYellow | BackgroundGreen
	ForegroundBrightYellowBackgroundGreen = ForegroundBright | ForegroundYellow | BackgroundGreen

	// ForegroundBrightBlueBackgroundGreen ForegroundBright | ForegroundBlue | BackgroundGreen
	ForegroundBrightBlueBackgroundGreen = ForegroundBright | ForegroundBlue | BackgroundGreen

	// ForegroundBrightMagentaBackgroundGreen ForegroundBright | ForegroundMagenta | BackgroundGreen
	ForegroundBrightMagentaBackgroundGreen = ForegroundBright | ForegroundMagenta | BackgroundGreen

	// ForegroundBrightCyanBackgroundGreen ForegroundBright | ForegroundCyan | BackgroundGreen
	ForegroundBrightCyanBackgroundGreen = ForegroundBright | ForegroundCyan | BackgroundGreen

	// ForegroundBrightWhiteBackgroundGreen ForegroundBright | ForegroundWhite | BackgroundGreen
	ForegroundBrightWhiteBackgroundGreen = ForegroundBright | ForegroundWhite | BackgroundGreen

	// ForegroundBlackBackgroundYellow ForegroundBlack | BackgroundYellow
	ForegroundBlackBackgroundYellow = ForegroundBlack | BackgroundYellow

	// ForegroundRedBackgroundYellow ForegroundRed | BackgroundYellow
	ForegroundRedBackgroundYellow = ForegroundRed | BackgroundYellow

	// ForegroundGreenBackgroundYellow ForegroundGreen | BackgroundYellow
	ForegroundGreenBackgroundYellow = ForegroundGreen | BackgroundYellow

	// ForegroundYellowBackgroundYellow ForegroundYellow | BackgroundYellow
	ForegroundYellowBackgroundYellow = ForegroundYellow | BackgroundYellow

	// ForegroundBlueBackgroundYellow ForegroundBlue | BackgroundYellow
	ForegroundBlueBackgroundYellow = ForegroundBlue | BackgroundYellow

	// ForegroundMagentaBackgroundYellow ForegroundMagenta | BackgroundYellow
	ForegroundMagentaBackgroundYellow = ForegroundMagenta | BackgroundYellow

	// ForegroundCyanBackgroundYellow ForegroundCyan | BackgroundYellow
	ForegroundCyanBackgroundYellow = ForegroundCyan | BackgroundYellow

	// ForegroundWhiteBackgroundYellow ForegroundWhite | BackgroundYellow
	ForegroundWhiteBackgroundYellow = ForegroundWhite | BackgroundYellow

	// ForegroundBrightBlackBackgroundYellow ForegroundBright | ForegroundBlack | BackgroundYellow
	ForegroundBrightBlackBackgroundYellow = ForegroundBright | ForegroundBlack | BackgroundYellow

	// ForegroundBrightRedBackgroundYellow ForegroundBright | ForegroundRed | BackgroundYellow
	ForegroundBrightRedBackgroundYellow = ForegroundBright | ForegroundRed | BackgroundYellow

	// ForegroundBrightGreenBackgroundYellow ForegroundBright | ForegroundGreen | BackgroundYellow
	ForegroundBrightGreenBackgroundYellow = ForegroundBright | ForegroundGreen | BackgroundYellow

	// ForegroundBrightYellowBackgroundYellow ForegroundBright | ForegroundYellow | BackgroundYellow
	ForegroundBrightYellowBackgroundYellow = ForegroundBright | ForegroundYellow | BackgroundYellow

	// ForegroundBrightBlueBackgroundYellow ForegroundBright | ForegroundBlue | BackgroundYellow
	ForegroundBrightBlueBackgroundYellow = ForegroundBright | ForegroundBlue | BackgroundYellow

	// ForegroundBrightMagentaBackgroundYellow ForegroundBright | ForegroundMagenta | BackgroundYellow
	ForegroundBrightMagentaBackgroundYellow = ForegroundBright | ForegroundMagenta | BackgroundYellow

	// ForegroundBrightCyanBackgroundYellow ForegroundBright | ForegroundCyan | BackgroundYellow
	ForegroundBrightCyanBackgroundYellow = ForegroundBright | ForegroundCyan | BackgroundYellow

	// ForegroundBrightWhiteBackgroundYellow ForegroundBright | ForegroundWhite | BackgroundYellow
	ForegroundBrightWhiteBackgroundYellow = ForegroundBright | ForegroundWhite | BackgroundYellow

	// ForegroundBlackBackgroundBlue ForegroundBlack | BackgroundBlue
	ForegroundBlackBackgroundBlue = ForegroundBlack | BackgroundBlue

	// ForegroundRedBackgroundBlue ForegroundRed | BackgroundBlue
	ForegroundRedBackgroundBlue = ForegroundRed | BackgroundBlue

	// ForegroundGreenBackgroundBlue ForegroundGreen | BackgroundBlue
	ForegroundGreenBackgroundBlue = ForegroundGreen | BackgroundBlue

	// ForegroundYellowBackgroundBlue ForegroundYellow | BackgroundBlue
	ForegroundYellowBackgroundBlue = ForegroundYellow | BackgroundBlue

	// ForegroundBlueBackgroundBlue ForegroundBlue | BackgroundBlue
	ForegroundBlueBackgroundBlue = ForegroundBlue | BackgroundBlue

	// ForegroundMagentaBackgroundBlue ForegroundMagenta | BackgroundBlue
	ForegroundMagentaBackgroundBlue = ForegroundMagenta | BackgroundBlue

	// ForegroundCyanBackgroundBlue ForegroundCyan | BackgroundBlue
	ForegroundCyanBackgroundBlue = ForegroundCyan | BackgroundBlue

	// ForegroundWhiteBackgroundBlue ForegroundWhite | BackgroundBlue
	ForegroundWhiteBackgroundBlue = ForegroundWhite | BackgroundBlue

	// ForegroundBrightBlackBackgroundBlue ForegroundBright | ForegroundBlack | BackgroundBlue
	ForegroundBrightBlackBackgroundBlue = ForegroundBright | ForegroundBlack | BackgroundBlue

	// ForegroundBrightRedBackgroundBlue ForegroundBright | ForegroundRed | BackgroundBlue
	ForegroundBrightRedBackgroundBlue = ForegroundBright | ForegroundRed | BackgroundBlue

	// ForegroundBrightGreenBackgroundBlue ForegroundBright | ForegroundGreen | BackgroundBlue
	ForegroundBrightGreenBackgroundBlue = ForegroundBright | ForegroundGreen | BackgroundBlue

	// ForegroundBrightYellowBackgroundBlue ForegroundBright | ForegroundYellow | BackgroundBlue
	ForegroundBrightYellowBackgroundBlue = ForegroundBright | ForegroundYellow | BackgroundBlue

	// ForegroundBrightBlueBackgroundBlue ForegroundBright | ForegroundBlue | BackgroundBlue
	ForegroundBrightBlueBackgroundBlue = ForegroundBright | ForegroundBlue | BackgroundBlue

	// ForegroundBrightMagentaBackgroundBlue ForegroundBright | ForegroundMagenta | BackgroundBlue
	ForegroundBrightMagentaBackgroundBlue = ForegroundBright | ForegroundMagenta | BackgroundBlue

	// ForegroundBrightCyanBackgroundBlue ForegroundBright | ForegroundCyan | BackgroundBlue
	ForegroundBrightCyanBackgroundBlue = ForegroundBright | ForegroundCyan | BackgroundBlue

	// ForegroundBrightWhiteBackgroundBlue ForegroundBright | ForegroundWhite | BackgroundBlue
	ForegroundBrightWhiteBackgroundBlue = ForegroundBright | ForegroundWhite | BackgroundBlue

	// ForegroundBlackBackgroundMagenta ForegroundBlack | BackgroundMagenta
	ForegroundBlackBackgroundMagenta = ForegroundBlack | BackgroundMagenta

	// ForegroundRedBackgroundMagenta ForegroundRed | BackgroundMagenta
	ForegroundRedBackgroundMagenta = ForegroundRed | BackgroundMagenta

	// ForegroundGreenBackgroundMagenta ForegroundGreen | BackgroundMagenta
	ForegroundGreenBackgroundMagenta = ForegroundGreen | BackgroundMagenta

	// ForegroundYellowBackgroundMagenta ForegroundYellow | BackgroundMagenta
	ForegroundYellowBackgroundMagenta = ForegroundYellow | BackgroundMagenta

	// ForegroundBlueBackgroundMagenta ForegroundBlue | BackgroundMagenta
	ForegroundBlueBackgroundMagenta = ForegroundBlue | BackgroundMagenta

	// ForegroundMagentaBackgroundMagenta ForegroundMagenta | BackgroundMagenta
	ForegroundMagentaBackgroundMagenta = ForegroundMagenta | BackgroundMagenta

	// ForegroundCyanBackgroundMagenta ForegroundCyan | BackgroundMagenta
	ForegroundCyanBackgroundMagenta = ForegroundCyan | BackgroundMagenta

	// ForegroundWhiteBackgroundMagenta ForegroundWhite | BackgroundMagenta
	ForegroundWhiteBackgroundMagenta = ForegroundWhite | BackgroundMagenta

	// ForegroundBrightBlackBackgroundMagenta ForegroundBright | ForegroundBlack | BackgroundMagenta
	ForegroundBrightBlackBackgroundMagenta = ForegroundBright | ForegroundBlack | BackgroundMagenta

	// ForegroundBrightRedBackgroundMagenta ForegroundBright | ForegroundRed | BackgroundMagenta
	ForegroundBrightRedBackgroundMagenta = ForegroundBright | ForegroundRed | BackgroundMagenta

	// ForegroundBrightGreenBackgroundMagenta ForegroundBright | ForegroundGreen | BackgroundMagenta
	ForegroundBrightGreenBackgroundMagenta = ForegroundBright | ForegroundGreen | BackgroundMagenta

	// ForegroundBrightYellowBackgroundMagenta ForegroundBright | ForegroundYellow | BackgroundMagenta
	ForegroundBrightYellowBackgroundMagenta = ForegroundBright | ForegroundYellow | BackgroundMagenta

	// ForegroundBrightBlueBackgroundMagenta ForegroundBright | ForegroundBlue | BackgroundMagenta
	ForegroundBrightBlueBackgroundMagenta = ForegroundBright | ForegroundBlue | BackgroundMagenta

	// ForegroundBrightMagentaBackgroundMagenta ForegroundBright | ForegroundMagenta | BackgroundMagenta
	ForegroundBrightMagentaBackgroundMagenta = ForegroundBright | ForegroundMagenta | BackgroundMagenta

	// ForegroundBrightCyanBackgroundMagenta ForegroundBright | ForegroundCyan | BackgroundMagenta
	ForegroundBrightCyanBackgroundMagenta = ForegroundBright | ForegroundCyan | BackgroundMagenta

	// ForegroundBrightWhiteBackgroundMagenta ForegroundBright | ForegroundWhite | BackgroundMagenta
	ForegroundBrightWhiteBackgroundMagenta = ForegroundBright | ForegroundWhite | BackgroundMagenta

	// ForegroundBlackBackgroundCyan ForegroundBlack | BackgroundCyan
	ForegroundBlackBackgroundCyan = ForegroundBlack | BackgroundCyan

	// ForegroundRedBackgroundCyan ForegroundRed | BackgroundCyan
	ForegroundRedBackgroundCyan = ForegroundRed | BackgroundCyan

	// ForegroundGreenBackgroundCyan ForegroundGreen | BackgroundCyan
	ForegroundGreenBackgroundCyan = ForegroundGreen | BackgroundCyan

	// ForegroundYellowBackgroundCyan ForegroundYellow | BackgroundCyan
	ForegroundYellowBackgroundCyan = ForegroundYellow | BackgroundCyan

	// ForegroundBlueBackgroundCyan ForegroundBlue | BackgroundCyan
	ForegroundBlueBackgroundCyan = ForegroundBlue | BackgroundCyan

	// ForegroundMagentaBackgroundCyan ForegroundMagenta | BackgroundCyan
	ForegroundMagentaBackgroundCyan = ForegroundMagenta | BackgroundCyan

	// ForegroundCyanBackgroundCyan ForegroundCyan | BackgroundCyan
	ForegroundCyanBackgroundCyan = ForegroundCyan | BackgroundCyan

	// ForegroundWhiteBackgroundCyan ForegroundWhite | BackgroundCyan
	ForegroundWhiteBackgroundCyan = ForegroundWhite | BackgroundCyan

	// ForegroundBrightBlackBackgroundCyan ForegroundBright | ForegroundBlack | BackgroundCyan
	ForegroundBrightBlackBackgroundCyan = ForegroundBright | ForegroundBlack | BackgroundCyan

	// ForegroundBrightRedBackgroundCyan ForegroundBright | ForegroundRed | BackgroundCyan
	ForegroundBrightRedBackgroundCyan = ForegroundBright | ForegroundRed | BackgroundCyan

	// ForegroundBrightGreenBackgroundCyan ForegroundBright | ForegroundGreen | BackgroundCyan
	ForegroundBrightGreenBackgroundCyan = ForegroundBright | ForegroundGreen | BackgroundCyan

	// ForegroundBrightYellowBackgroundCyan ForegroundBright | ForegroundYellow | BackgroundCyan
	ForegroundBrightYellowBackgroundCyan = ForegroundBright | ForegroundYellow | BackgroundCyan

	// ForegroundBrightBlueBackgroundCyan ForegroundBright | ForegroundBlue | BackgroundCyan
	ForegroundBrightBlueBackgroundCyan = ForegroundBright | ForegroundBlue | BackgroundCyan

	// ForegroundBrightMagentaBackgroundCyan ForegroundBright | ForegroundMagenta | BackgroundCyan
	ForegroundBrightMagentaBackgroundCyan = ForegroundBright | ForegroundMagenta | BackgroundCyan

	// ForegroundBrightCyanBackgroundCyan ForegroundBright | ForegroundCyan | BackgroundCyan
	ForegroundBrightCyanBackgroundCyan = ForegroundBright | ForegroundCyan | BackgroundCyan

	// ForegroundBrightWhiteBackgroundCyan ForegroundBright | ForegroundWhite | BackgroundCyan
	ForegroundBrightWhiteBackgroundCyan = ForegroundBright | ForegroundWhite | BackgroundCyan

	// ForegroundBlackBackgroundWhite ForegroundBlack | BackgroundWhite
	ForegroundBlackBackgroundWhite = ForegroundBlack | BackgroundWhite

	// ForegroundRedBackgroundWhite ForegroundRed | BackgroundWhite
	ForegroundRedBackgroundWhite = ForegroundRed | BackgroundWhite

	// ForegroundGreenBackgroundWhite ForegroundGreen | BackgroundWhite
	ForegroundGreenBackgroundWhite = ForegroundGreen | BackgroundWhite

	// ForegroundYellowBackgroundWhite ForegroundYellow | BackgroundWhite
	ForegroundYellowBackgroundWhite = ForegroundYellow | BackgroundWhite

	// ForegroundBlueBackgroundWhite ForegroundBlue | BackgroundWhite
	ForegroundBlueBackgroundWhite = ForegroundBlue | BackgroundWhite

	// ForegroundMagentaBackgroundWhite ForegroundMagenta | BackgroundWhite
	ForegroundMagentaBackgroundWhite = ForegroundMagenta | BackgroundWhite

	// ForegroundCyanBackgroundWhite ForegroundCyan | BackgroundWhite
	ForegroundCyanBackgroundWhite = ForegroundCyan | BackgroundWhite

	// ForegroundWhiteBackgroundWhite ForegroundWhite | BackgroundWhite
	ForegroundWhiteBackgroundWhite = ForegroundWhite | BackgroundWhite

	// ForegroundBrightBlackBackgroundWhite ForegroundBright | ForegroundBlack | BackgroundWhite
	ForegroundBrightBlackBackgroundWhite = ForegroundBright | ForegroundBlack | BackgroundWhite

	// ForegroundBrightRedBackgroundWhite ForegroundBright | ForegroundRed | BackgroundWhite
	ForegroundBrightRedBackgroundWhite = ForegroundBright | ForegroundRed | BackgroundWhite

	// ForegroundBrightGreenBackgroundWhite ForegroundBright | ForegroundGreen | BackgroundWhite
	ForegroundBrightGreenBackgroundWhite = ForegroundBright | ForegroundGreen | BackgroundWhite

	// ForegroundBrightYellowBackgroundWhite ForegroundBright | ForegroundYellow | BackgroundWhite
	ForegroundBrightYellowBackgroundWhite = ForegroundBright | ForegroundYellow | BackgroundWhite

	// ForegroundBrightBlueBackgroundWhite ForegroundBright | ForegroundBlue | BackgroundWhite
	ForegroundBrightBlueBackgroundWhite = ForegroundBright | ForegroundBlue | BackgroundWhite

	// ForegroundBrightMagentaBackgroundWhite ForegroundBright | ForegroundMagenta | BackgroundWhite
	ForegroundBrightMagentaBackgroundWhite = ForegroundBright | ForegroundMagenta | BackgroundWhite

	// ForegroundBrightCyanBackgroundWhite ForegroundBright | ForegroundCyan | BackgroundWhite
	ForegroundBrightCyanBackgroundWhite = ForegroundBright | ForegroundCyan | BackgroundWhite

	// ForegroundBrightWhiteBackgroundWhite ForegroundBright | ForegroundWhite | BackgroundWhite
	ForegroundBrightWhiteBackgroundWhite = ForegroundBright | ForegroundWhite | BackgroundWhite

	// ForegroundBlackBackgroundBrightBlack ForegroundBlack | BackgroundBright | BackgroundBlack
	ForegroundBlackBackgroundBrightBlack = ForegroundBlack | BackgroundBright | BackgroundBlack

	// ForegroundRedBackgroundBrightBlack ForegroundRed | BackgroundBright | BackgroundBlack
	ForegroundRedBackgroundBrightBlack = ForegroundRed | BackgroundBright | BackgroundBlack

	// ForegroundGreenBackgroundBrightBlack ForegroundGreen | BackgroundBright | BackgroundBlack
	ForegroundGreenBackgroundBrightBlack = ForegroundGreen | BackgroundBright | BackgroundBlack

	// ForegroundYellowBackgroundBrightBlack ForegroundYellow | BackgroundBright | BackgroundBlack
	ForegroundYellowBackgroundBrightBlack = ForegroundYellow | BackgroundBright | BackgroundBlack

	// ForegroundBlueBackgroundBrightBlack ForegroundBlue | BackgroundBright | BackgroundBlack
	ForegroundBlueBackgroundBrightBlack = ForegroundBlue | BackgroundBright | BackgroundBlack

	// ForegroundMagentaBackgroundBrightBlack ForegroundMagenta | BackgroundBright | BackgroundBlack
	ForegroundMagentaBackgroundBrightBlack = ForegroundMagenta | BackgroundBright | BackgroundBlack

	// ForegroundCyanBackgroundBrightBlack ForegroundCyan | BackgroundBright | BackgroundBlack
	ForegroundCyanBackgroundBrightBlack = ForegroundCyan | BackgroundBright | BackgroundBlack

	// ForegroundWhiteBackgroundBrightBlack ForegroundWhite | BackgroundBright | BackgroundBlack
	ForegroundWhiteBackgroundBrightBlack = ForegroundWhite | BackgroundBright | BackgroundBlack

	// ForegroundBrightBlackBackgroundBrightBlack ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundBlack
	ForegroundBrightBlackBackgroundBrightBlack = ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundBlack

	// ForegroundBrightRedBackgroundBrightBlack ForegroundBright | ForegroundRed | BackgroundBright | BackgroundBlack
	ForegroundBrightRedBackgroundBrightBlack = ForegroundBright | ForegroundRed | BackgroundBright | BackgroundBlack

	// ForegroundBrightGreenBackgroundBrightBlack ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundBlack
	ForegroundBrightGreenBackgroundBrightBlack = ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundBlack

	// ForegroundBrightYellowBackgroundBrightBlack ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundBlack
	ForegroundBrightYellowBackgroundBrightBlack = ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundBlack

	// ForegroundBrightBlueBackgroundBrightBlack ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundBlack
	ForegroundBrightBlueBackgroundBrightBlack = ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundBlack

	// ForegroundBrightMagentaBackgroundBrightBlack ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundBlack
	ForegroundBrightMagentaBackgroundBrightBlack = ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundBlack

	// ForegroundBrightCyanBackgroundBrightBlack ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundBlack
	ForegroundBrightCyanBackgroundBrightBlack = ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundBlack

	// ForegroundBrightWhiteBackgroundBrightBlack ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundBlack
	ForegroundBrightWhiteBackgroundBrightBlack = ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundBlack

	// ForegroundBlackBackgroundBrightRed ForegroundBlack | BackgroundBright | BackgroundRed
	ForegroundBlackBackgroundBrightRed = ForegroundBlack | BackgroundBright | BackgroundRed

	// ForegroundRedBackgroundBrightRed ForegroundRed | BackgroundBright | BackgroundRed
	ForegroundRedBackgroundBrightRed = ForegroundRed | BackgroundBright | BackgroundRed

	// ForegroundGreenBackgroundBrightRed ForegroundGreen | BackgroundBright | BackgroundRed
	ForegroundGreenBackgroundBrightRed = ForegroundGreen | BackgroundBright | BackgroundRed

	// ForegroundYellowBackgroundBrightRed ForegroundYellow | BackgroundBright | BackgroundRed
	ForegroundYellowBackgroundBrightRed = ForegroundYellow | BackgroundBright | BackgroundRed

	// ForegroundBlueBackgroundBrightRed ForegroundBlue | BackgroundBright | BackgroundRed
	ForegroundBlueBackgroundBrightRed = ForegroundBlue | BackgroundBright | BackgroundRed

	// ForegroundMagentaBackgroundBrightRed ForegroundMagenta | BackgroundBright | BackgroundRed
	ForegroundMagentaBackgroundBrightRed = ForegroundMagenta | BackgroundBright | BackgroundRed

	// ForegroundCyanBackgroundBrightRed ForegroundCyan | BackgroundBright | BackgroundRed
	ForegroundCyanBackgroundBrightRed = ForegroundCyan | BackgroundBright | BackgroundRed

	// ForegroundWhiteBackgroundBrightRed ForegroundWhite | BackgroundBright | BackgroundRed
	ForegroundWhiteBackgroundBrightRed = ForegroundWhite | BackgroundBright | BackgroundRed

	// ForegroundBrightBlackBackgroundBrightRed ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundRed
	ForegroundBrightBlackBackgroundBrightRed = ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundRed

	// ForegroundBrightRedBackgroundBrightRed ForegroundBright | ForegroundRed | BackgroundBright | BackgroundRed
	ForegroundBrightRedBackgroundBrightRed = ForegroundBright | ForegroundRed | BackgroundBright | BackgroundRed

	// ForegroundBrightGreenBackgroundBrightRed ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundRed
	ForegroundBrightGreenBackgroundBrightRed = ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundRed

	// ForegroundBrightYellowBackgroundBrightRed ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundRed
	ForegroundBrightYellowBackgroundBrightRed = ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundRed

	// ForegroundBrightBlueBackgroundBrightRed ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundRed
	ForegroundBrightBlueBackgroundBrightRed = ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundRed

	// ForegroundBrightMagentaBackgroundBrightRed ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundRed
	ForegroundBrightMagentaBackgroundBrightRed = ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundRed

	// ForegroundBrightCyanBackgroundBrightRed ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundRed
	ForegroundBrightCyanBackgroundBrightRed = ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundRed

	// ForegroundBrightWhiteBackgroundBrightRed ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundRed
	ForegroundBrightWhiteBackgroundBrightRed = ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundRed

	// ForegroundBlackBackgroundBrightGreen ForegroundBlack | BackgroundBright | BackgroundGreen
	ForegroundBlackBackgroundBrightGreen = ForegroundBlack | BackgroundBright | BackgroundGreen

	// ForegroundRedBackgroundBrightGreen ForegroundRed | BackgroundBright | BackgroundGreen
	ForegroundRedBackgroundBrightGreen = ForegroundRed | BackgroundBright | BackgroundGreen

	// ForegroundGreenBackgroundBrightGreen ForegroundGreen | BackgroundBright | BackgroundGreen
	ForegroundGreenBackgroundBrightGreen = ForegroundGreen | BackgroundBright | BackgroundGreen

	// ForegroundYellowBackgroundBrightGreen ForegroundYellow | BackgroundBright | BackgroundGreen
	ForegroundYellowBackgroundBrightGreen = ForegroundYellow | BackgroundBright | BackgroundGreen

	// ForegroundBlueBackgroundBrightGreen ForegroundBlue | BackgroundBright | BackgroundGreen
	ForegroundBlueBackgroundBrightGreen = ForegroundBlue | BackgroundBright | BackgroundGreen

	// ForegroundMagentaBackgroundBrightGreen ForegroundMagenta | BackgroundBright | BackgroundGreen
	ForegroundMagentaBackgroundBrightGreen = ForegroundMagenta | BackgroundBright | BackgroundGreen

	// ForegroundCyanBackgroundBrightGreen ForegroundCyan | BackgroundBright | BackgroundGreen
	ForegroundCyanBackgroundBrightGreen = ForegroundCyan | BackgroundBright | BackgroundGreen

	// ForegroundWhiteBackgroundBrightGreen ForegroundWhite | BackgroundBright | BackgroundGreen
	ForegroundWhiteBackgroundBrightGreen = ForegroundWhite | BackgroundBright | BackgroundGreen

	// ForegroundBrightBlackBackgroundBrightGreen ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundGreen
	ForegroundBrightBlackBackgroundBrightGreen = ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundGreen

	// ForegroundBrightRedBackgroundBrightGreen ForegroundBright | ForegroundRed | BackgroundBright | BackgroundGreen
	ForegroundBrightRedBackgroundBrightGreen = ForegroundBright | ForegroundRed | BackgroundBright | BackgroundGreen

	// ForegroundBrightGreenBackgroundBrightGreen ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundGreen
	ForegroundBrightGreenBackgroundBrightGreen = ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundGreen

	// ForegroundBrightYellowBackgroundBrightGreen ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundGreen
	ForegroundBrightYellowBackgroundBrightGreen = ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundGreen

	// ForegroundBrightBlueBackgroundBrightGreen ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundGreen
	ForegroundBrightBlueBackgroundBrightGreen = ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundGreen

	// ForegroundBrightMagentaBackgroundBrightGreen ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundGreen
	ForegroundBrightMagentaBackgroundBrightGreen = ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundGreen

	// ForegroundBrightCyanBackgroundBrightGreen ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundGreen
	ForegroundBrightCyanBackgroundBrightGreen = ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundGreen

	// ForegroundBrightWhiteBackgroundBrightGreen ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundGreen
	ForegroundBrightWhiteBackgroundBrightGreen = ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundGreen

	// ForegroundBlackBackgroundBrightYellow ForegroundBlack | BackgroundBright | BackgroundYellow
	ForegroundBlackBackgroundBrightYellow = ForegroundBlack | BackgroundBright | BackgroundYellow

	// ForegroundRedBackgroundBrightYellow ForegroundRed | BackgroundBright | BackgroundYellow
	ForegroundRedBackgroundBrightYellow = ForegroundRed | BackgroundBright | BackgroundYellow

	// ForegroundGreenBackgroundBrightYellow ForegroundGreen | BackgroundBright | BackgroundYellow
	ForegroundGreenBackgroundBrightYellow = ForegroundGreen | BackgroundBright | BackgroundYellow

	// ForegroundYellowBackgroundBrightYellow ForegroundYellow | BackgroundBright | BackgroundYellow
	ForegroundYellowBackgroundBrightYellow = ForegroundYellow | BackgroundBright | BackgroundYellow

	// ForegroundBlueBackgroundBrightYellow ForegroundBlue | BackgroundBright | BackgroundYellow
	ForegroundBlueBackgroundBrightYellow = ForegroundBlue | BackgroundBright | BackgroundYellow

	// ForegroundMagentaBackgroundBrightYellow ForegroundMagenta | BackgroundBright | BackgroundYellow
	ForegroundMagentaBackgroundBrightYellow = ForegroundMagenta | BackgroundBright | BackgroundYellow

	// ForegroundCyanBackgroundBrightYellow ForegroundCyan | BackgroundBright | BackgroundYellow
	ForegroundCyanBackgroundBrightYellow = ForegroundCyan | BackgroundBright | BackgroundYellow

	// ForegroundWhiteBackgroundBrightYellow ForegroundWhite | BackgroundBright | BackgroundYellow
	ForegroundWhiteBackgroundBrightYellow = ForegroundWhite | BackgroundBright | BackgroundYellow

	// ForegroundBrightBlackBackgroundBrightYellow ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundYellow
	ForegroundBrightBlackBackgroundBrightYellow = ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundYellow

	// ForegroundBrightRedBackgroundBrightYellow ForegroundBright | ForegroundRed | BackgroundBright | BackgroundYellow
	ForegroundBrightRedBackgroundBrightYellow = ForegroundBright | ForegroundRed | BackgroundBright | BackgroundYellow

	// ForegroundBrightGreenBackgroundBrightYellow ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundYellow
	ForegroundBrightGreenBackgroundBrightYellow = ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundYellow

	// ForegroundBrightYellowBackgroundBrightYellow ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundYellow
	ForegroundBrightYellowBackgroundBrightYellow = ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundYellow

	// ForegroundBrightBlueBackgroundBrightYellow ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundYellow
	ForegroundBrightBlueBackgroundBrightYellow = ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundYellow

	// ForegroundBrightMagentaBackgroundBrightYellow ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundYellow
	ForegroundBrightMagentaBackgroundBrightYellow = ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundYellow

	// ForegroundBrightCyanBackgroundBrightYellow ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundYellow
	ForegroundBrightCyanBackgroundBrightYellow = ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundYellow

	// ForegroundBrightWhiteBackgroundBrightYellow ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundYellow
	ForegroundBrightWhiteBackgroundBrightYellow = ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundYellow

	// ForegroundBlackBackgroundBrightBlue ForegroundBlack | BackgroundBright | BackgroundBlue
	ForegroundBlackBackgroundBrightBlue = ForegroundBlack | BackgroundBright | BackgroundBlue

	// ForegroundRedBackgroundBrightBlue ForegroundRed | BackgroundBright | BackgroundBlue
	ForegroundRedBackgroundBrightBlue = ForegroundRed | BackgroundBright | BackgroundBlue

	// ForegroundGreenBackgroundBrightBlue ForegroundGreen | BackgroundBright | BackgroundBlue
	ForegroundGreenBackgroundBrightBlue = ForegroundGreen | BackgroundBright | BackgroundBlue

	// ForegroundYellowBackgroundBrightBlue ForegroundYellow | BackgroundBright | BackgroundBlue
	ForegroundYellowBackgroundBrightBlue = ForegroundYellow | BackgroundBright | BackgroundBlue

	// ForegroundBlueBackgroundBrightBlue ForegroundBlue | BackgroundBright | BackgroundBlue
	ForegroundBlueBackgroundBrightBlue = ForegroundBlue | BackgroundBright | BackgroundBlue

	// ForegroundMagentaBackgroundBrightBlue ForegroundMagenta | BackgroundBright | BackgroundBlue
	ForegroundMagentaBackgroundBrightBlue = ForegroundMagenta | BackgroundBright | BackgroundBlue

	// ForegroundCyanBackgroundBrightBlue ForegroundCyan | BackgroundBright | BackgroundBlue
	ForegroundCyanBackgroundBrightBlue = ForegroundCyan | BackgroundBright | BackgroundBlue

	// ForegroundWhiteBackgroundBrightBlue ForegroundWhite | BackgroundBright | BackgroundBlue
	ForegroundWhiteBackgroundBrightBlue = ForegroundWhite | BackgroundBright | BackgroundBlue

	// ForegroundBrightBlackBackgroundBrightBlue ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundBlue
	ForegroundBrightBlackBackgroundBrightBlue = ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundBlue

	// ForegroundBrightRedBackgroundBrightBlue ForegroundBright | ForegroundRed | BackgroundBright | BackgroundBlue
	ForegroundBrightRedBackgroundBrightBlue = ForegroundBright | ForegroundRed | BackgroundBright | BackgroundBlue

	// ForegroundBrightGreenBackgroundBrightBlue ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundBlue
	ForegroundBrightGreenBackgroundBrightBlue = ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundBlue

	// ForegroundBrightYellowBackgroundBrightBlue ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundBlue
	ForegroundBrightYellowBackgroundBrightBlue = ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundBlue

	// ForegroundBrightBlueBackgroundBrightBlue ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundBlue
	ForegroundBrightBlueBackgroundBrightBlue = ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundBlue

	// ForegroundBrightMagentaBackgroundBrightBlue ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundBlue
	ForegroundBrightMagentaBackgroundBrightBlue = ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundBlue

	// ForegroundBrightCyanBackgroundBrightBlue ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundBlue
	ForegroundBrightCyanBackgroundBrightBlue = ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundBlue

	// ForegroundBrightWhiteBackgroundBrightBlue ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundBlue
	ForegroundBrightWhiteBackgroundBrightBlue = ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundBlue

	// ForegroundBlackBackgroundBrightMagenta ForegroundBlack | BackgroundBright | BackgroundMagenta
	ForegroundBlackBackgroundBrightMagenta = ForegroundBlack | BackgroundBright | BackgroundMagenta

	// ForegroundRedBackgroundBrightMagenta ForegroundRed | BackgroundBright | BackgroundMagenta
	ForegroundRedBackgroundBrightMagenta = ForegroundRed | BackgroundBright | BackgroundMagenta

	// ForegroundGreenBackgroundBrightMagenta ForegroundGreen | BackgroundBright | BackgroundMagenta
	ForegroundGreenBackgroundBrightMagenta = ForegroundGreen | BackgroundBright | BackgroundMagenta

	// ForegroundYellowBackgroundBrightMagenta ForegroundYellow | BackgroundBright | BackgroundMagenta
	ForegroundYellowBackgroundBrightMagenta = ForegroundYellow | BackgroundBright | BackgroundMagenta

	// ForegroundBlueBackgroundBrightMagenta ForegroundBlue | BackgroundBright | BackgroundMagenta
	ForegroundBlueBackgroundBrightMagenta = ForegroundBlue | BackgroundBright | BackgroundMagenta

	// ForegroundMagentaBackgroundBrightMagenta ForegroundMagenta | BackgroundBright | BackgroundMagenta
	ForegroundMagentaBackgroundBrightMagenta = ForegroundMagenta | BackgroundBright | BackgroundMagenta

	// ForegroundCyanBackgroundBrightMagenta ForegroundCyan | BackgroundBright | BackgroundMagenta
	ForegroundCyanBackgroundBrightMagenta = ForegroundCyan | BackgroundBright | BackgroundMagenta

	// ForegroundWhiteBackgroundBrightMagenta ForegroundWhite | BackgroundBright | BackgroundMagenta
	ForegroundWhiteBackgroundBrightMagenta = ForegroundWhite | BackgroundBright | BackgroundMagenta

	// ForegroundBrightBlackBackgroundBrightMagenta ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundMagenta
	ForegroundBrightBlackBackgroundBrightMagenta = ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundMagenta

	// ForegroundBrightRedBackgroundBrightMagenta ForegroundBright | ForegroundRed | BackgroundBright | BackgroundMagenta
	ForegroundBrightRedBackgroundBrightMagenta = ForegroundBright | ForegroundRed | BackgroundBright | BackgroundMagenta

	// ForegroundBrightGreenBackgroundBrightMagenta ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundMagenta
	ForegroundBrightGreenBackgroundBrightMagenta = ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundMagenta

	// ForegroundBrightYellowBackgroundBrightMagenta ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundMagenta
	ForegroundBrightYellowBackgroundBrightMagenta = ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundMagenta

	// ForegroundBrightBlueBackgroundBrightMagenta ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundMagenta
	ForegroundBrightBlueBackgroundBrightMagenta = ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundMagenta

	// ForegroundBrightMagentaBackgroundBrightMagenta ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundMagenta
	ForegroundBrightMagentaBackgroundBrightMagenta = ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundMagenta

	// ForegroundBrightCyanBackgroundBrightMagenta ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundMagenta
	ForegroundBrightCyanBackgroundBrightMagenta = ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundMagenta

	// ForegroundBrightWhiteBackgroundBrightMagenta ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundMagenta
	ForegroundBrightWhiteBackgroundBrightMagenta = ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundMagenta

	// ForegroundBlackBackgroundBrightCyan ForegroundBlack | BackgroundBright | BackgroundCyan
	ForegroundBlackBackgroundBrightCyan = ForegroundBlack | BackgroundBright | BackgroundCyan

	// ForegroundRedBackgroundBrightCyan ForegroundRed | BackgroundBright | BackgroundCyan
	ForegroundRedBackgroundBrightCyan = ForegroundRed | BackgroundBright | BackgroundCyan

	// ForegroundGreenBackgroundBrightCyan ForegroundGreen | BackgroundBright | BackgroundCyan
	ForegroundGreenBackgroundBrightCyan = ForegroundGreen | BackgroundBright | BackgroundCyan

	// ForegroundYellowBackgroundBrightCyan ForegroundYellow | BackgroundBright | BackgroundCyan
	ForegroundYellowBackgroundBrightCyan = ForegroundYellow | BackgroundBright | BackgroundCyan

	// ForegroundBlueBackgroundBrightCyan ForegroundBlue | BackgroundBright | BackgroundCyan
	ForegroundBlueBackgroundBrightCyan = ForegroundBlue | BackgroundBright | BackgroundCyan

	// ForegroundMagentaBackgroundBrightCyan ForegroundMagenta | BackgroundBright | BackgroundCyan
	ForegroundMagentaBackgroundBrightCyan = ForegroundMagenta | BackgroundBright | BackgroundCyan

	// ForegroundCyanBackgroundBrightCyan ForegroundCyan | BackgroundBright | BackgroundCyan
	ForegroundCyanBackgroundBrightCyan = ForegroundCyan | BackgroundBright | BackgroundCyan

	// ForegroundWhiteBackgroundBrightCyan ForegroundWhite | BackgroundBright | BackgroundCyan
	ForegroundWhiteBackgroundBrightCyan = ForegroundWhite | BackgroundBright | BackgroundCyan

	// ForegroundBrightBlackBackgroundBrightCyan ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundCyan
	ForegroundBrightBlackBackgroundBrightCyan = ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundCyan

	// ForegroundBrightRedBackgroundBrightCyan ForegroundBright | ForegroundRed | BackgroundBright | BackgroundCyan
	ForegroundBrightRedBackgroundBrightCyan = ForegroundBright | ForegroundRed | BackgroundBright | BackgroundCyan

	// ForegroundBrightGreenBackgroundBrightCyan ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundCyan
	ForegroundBrightGreenBackgroundBrightCyan = ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundCyan

	// ForegroundBrightYellowBackgroundBrightCyan ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundCyan
	ForegroundBrightYellowBackgroundBrightCyan = ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundCyan

	// ForegroundBrightBlueBackgroundBrightCyan ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundCyan
	ForegroundBrightBlueBackgroundBrightCyan = ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundCyan

	// ForegroundBrightMagentaBackgroundBrightCyan ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundCyan
	ForegroundBrightMagentaBackgroundBrightCyan = ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundCyan

	// ForegroundBrightCyanBackgroundBrightCyan ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundCyan
	ForegroundBrightCyanBackgroundBrightCyan = ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundCyan

	// ForegroundBrightWhiteBackgroundBrightCyan ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundCyan
	ForegroundBrightWhiteBackgroundBrightCyan = ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundCyan

	// ForegroundBlackBackgroundBrightWhite ForegroundBlack | BackgroundBright | BackgroundWhite
	ForegroundBlackBackgroundBrightWhite = ForegroundBlack | BackgroundBright | BackgroundWhite

	// ForegroundRedBackgroundBrightWhite ForegroundRed | BackgroundBright | BackgroundWhite
	ForegroundRedBackgroundBrightWhite = ForegroundRed | BackgroundBright | BackgroundWhite

	// ForegroundGreenBackgroundBrightWhite ForegroundGreen | BackgroundBright | BackgroundWhite
	ForegroundGreenBackgroundBrightWhite = ForegroundGreen | BackgroundBright | BackgroundWhite

	// ForegroundYellowBackgroundBrightWhite ForegroundYellow | BackgroundBright | BackgroundWhite
	ForegroundYellowBackgroundBrightWhite = ForegroundYellow | BackgroundBright | BackgroundWhite

	// ForegroundBlueBackgroundBrightWhite ForegroundBlue | BackgroundBright | BackgroundWhite
	ForegroundBlueBackgroundBrightWhite = ForegroundBlue | BackgroundBright | BackgroundWhite

	// ForegroundMagentaBackgroundBrightWhite ForegroundMagenta | BackgroundBright | BackgroundWhite
	ForegroundMagentaBackgroundBrightWhite = ForegroundMagenta | BackgroundBright | BackgroundWhite

	// ForegroundCyanBackgroundBrightWhite ForegroundCyan | BackgroundBright | BackgroundWhite
	ForegroundCyanBackgroundBrightWhite = ForegroundCyan | BackgroundBright | BackgroundWhite

	// ForegroundWhiteBackgroundBrightWhite ForegroundWhite | BackgroundBright | BackgroundWhite
	ForegroundWhiteBackgroundBrightWhite = ForegroundWhite | BackgroundBright | BackgroundWhite

	// ForegroundBrightBlackBackgroundBrightWhite ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundWhite
	ForegroundBrightBlackBackgroundBrightWhite = ForegroundBright | ForegroundBlack | BackgroundBright | BackgroundWhite

	// ForegroundBrightRedBackgroundBrightWhite ForegroundBright | ForegroundRed | BackgroundBright | BackgroundWhite
	ForegroundBrightRedBackgroundBrightWhite = ForegroundBright | ForegroundRed | BackgroundBright | BackgroundWhite

	// ForegroundBrightGreenBackgroundBrightWhite ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundWhite
	ForegroundBrightGreenBackgroundBrightWhite = ForegroundBright | ForegroundGreen | BackgroundBright | BackgroundWhite

	// ForegroundBrightYellowBackgroundBrightWhite ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundWhite
	ForegroundBrightYellowBackgroundBrightWhite = ForegroundBright | ForegroundYellow | BackgroundBright | BackgroundWhite

	// ForegroundBrightBlueBackgroundBrightWhite ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundWhite
	ForegroundBrightBlueBackgroundBrightWhite = ForegroundBright | ForegroundBlue | BackgroundBright | BackgroundWhite

	// ForegroundBrightMagentaBackgroundBrightWhite ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundWhite
	ForegroundBrightMagentaBackgroundBrightWhite = ForegroundBright | ForegroundMagenta | BackgroundBright | BackgroundWhite

	// ForegroundBrightCyanBackgroundBrightWhite ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundWhite
	ForegroundBrightCyanBackgroundBrightWhite = ForegroundBright | ForegroundCyan | BackgroundBright | BackgroundWhite

	// ForegroundBrightWhiteBackgroundBrightWhite ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundWhite
	ForegroundBrightWhiteBackgroundBrightWhite = ForegroundBright | ForegroundWhite | BackgroundBright | BackgroundWhite
)
