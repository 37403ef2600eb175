package winseq

// This package only works with Windows.
// Virtual terminal sequences are control character sequences that can control cursor movement,
// color/font mode, and other operations when written to the output stream.
// Sequences may also be received on the input stream in response to an output stream query information sequence or
// as an encoding of user input when the appropriate mode is set.
