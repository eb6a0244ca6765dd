package sim

import (
	"fmt"
	"net/http"

	"bhtop/api"
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

// Error codes the simulator answers with (package api names them all).
const (
	codeUnknown          = api.CodeUnknown
	codeDisconnected     = api.CodeDisconnected
	codeUnauthorized     = api.CodeUnauthorized
	codeTooManyRequests  = api.CodeTooManyRequests
	codeTimeout          = api.CodeTimeout
	codeTooManyOrders    = api.CodeTooManyOrders
	codeFilterFailure    = api.CodeFilterFailure
	codeInvalidTimestamp = api.CodeInvalidTimestamp
	codeInvalidSignature = api.CodeInvalidSignature
	codeIllegalChars     = api.CodeIllegalChars
	codeTooManyParams    = api.CodeTooManyParams
	codeMandatoryParam   = api.CodeMandatoryParam
	codeBadPrecision     = api.CodeBadPrecision
	codeInvalidTIF       = api.CodeInvalidTIF
	codeInvalidOrderType = api.CodeInvalidOrderType
	codeInvalidSide      = api.CodeInvalidSide
	codeBadInterval      = api.CodeBadInterval
	codeBadSymbol        = api.CodeBadSymbol
	codeInvalidListenKey = api.CodeInvalidListenKey
	codeOrderFilled      = api.CodeOrderFilled
	codeOrderDuplicated  = api.CodeOrderDuplicated
	codeOrderCanceled    = api.CodeOrderCanceled
	codeNewOrderRejected = api.CodeNewOrderRejected
	codeNoSuchOrder      = api.CodeNoSuchOrder
	codeBadAPIKeyFmt     = api.CodeBadAPIKeyFmt
	codeRejectedKey      = api.CodeRejectedKey
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
