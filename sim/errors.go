package sim

import (
	"fmt"
	"net/http"
)

// apiError is an error reply: HTTP status and the {"code","msg"} payload
// of API-FACTS.md.
type apiError struct {
	status int
	code   int
	msg    string
	// retryAfter, when set, becomes the Retry-After header (seconds).
	retryAfter int
}

// Error codes of API-FACTS.md that the simulator answers with.
const (
	codeUnknown          = -1000
	codeDisconnected     = -1001
	codeUnauthorized     = -1002
	codeTooManyRequests  = -1003
	codeTimeout          = -1007
	codeTooManyOrders    = -1015
	codeFilterFailure    = -1013
	codeInvalidTimestamp = -1021
	codeInvalidSignature = -1022
	codeIllegalChars     = -1100
	codeTooManyParams    = -1101
	codeMandatoryParam   = -1102
	codeBadPrecision     = -1111
	codeInvalidTIF       = -1115
	codeInvalidOrderType = -1116
	codeInvalidSide      = -1117
	codeBadInterval      = -1120
	codeBadSymbol        = -1121
	codeInvalidListenKey = -1125
	codeOrderFilled      = -1139
	codeOrderDuplicated  = -1141
	codeOrderCanceled    = -1142
	codeNewOrderRejected = -2010
	codeNoSuchOrder      = -2013
	codeBadAPIKeyFmt     = -2014
	codeRejectedKey      = -2015
)

func errf(status, code int, format string, a ...any) *apiError {
	return &apiError{status: status, code: code, msg: fmt.Sprintf(format, a...)}
}

// badParam is the 400 reply of a parameter error.
func badParam(code int, format string, a ...any) *apiError {
	return errf(http.StatusBadRequest, code, format, a...)
}

func errMandatory(name string) *apiError {
	return badParam(codeMandatoryParam, "Mandatory parameter '%s' was not sent, was empty/null, or malformed.", name)
}

func errNoSuchOrder() *apiError {
	return badParam(codeNoSuchOrder, "Order does not exist.")
}

func errInsufficient() *apiError {
	return badParam(codeNewOrderRejected, "Account has insufficient balance for requested action.")
}
