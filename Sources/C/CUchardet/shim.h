// uchardet: guesses the encoding of text that is not UTF-8 (see TextHandler/EncodingDetector.swift).
#include <uchardet/uchardet.h>
