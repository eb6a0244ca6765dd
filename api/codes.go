package api

// Error codes of API-FACTS.md 'Errors': the code of a {"code","msg"} reply.
const (
	CodeUnknown          = -1000
	CodeDisconnected     = -1001
	CodeUnauthorized     = -1002
	CodeTooManyRequests  = -1003
	CodeUnexpectedResp   = -1006
	CodeTimeout          = -1007
	CodeFilterFailure    = -1013
	CodeTooManyOrders    = -1015
	CodeInvalidTimestamp = -1021
	CodeInvalidSignature = -1022
	CodeIllegalChars     = -1100
	CodeTooManyParams    = -1101
	CodeMandatoryParam   = -1102
	CodeUnknownParam     = -1103
	CodeBadPrecision     = -1111
	CodeInvalidTIF       = -1115
	CodeInvalidOrderType = -1116
	CodeInvalidSide      = -1117
	CodeBadInterval      = -1120
	CodeBadSymbol        = -1121
	CodeInvalidListenKey = -1125
	CodeOrderFilled      = -1139
	CodeOrderDuplicated  = -1141
	CodeOrderCanceled    = -1142
	CodeNewOrderRejected = -2010
	CodeCancelRejected   = -2011
	CodeNoSuchOrder      = -2013
	CodeBadAPIKeyFmt     = -2014
	CodeRejectedKey      = -2015
)

// CodeName is a code's name as the docs spell it, or "" for a code they
// do not list.
func CodeName(code int) string {
	switch code {
	case CodeUnknown:
		return "UNKNOWN"
	case CodeDisconnected:
		return "DISCONNECTED"
	case CodeUnauthorized:
		return "UNAUTHORIZED"
	case CodeTooManyRequests:
		return "TOO_MANY_REQUESTS"
	case CodeUnexpectedResp:
		return "UNEXPECTED_RESP"
	case CodeTimeout:
		return "TIMEOUT"
	case CodeFilterFailure:
		return "FILTER_FAILURE"
	case CodeTooManyOrders:
		return "TOO_MANY_ORDERS"
	case CodeInvalidTimestamp:
		return "INVALID_TIMESTAMP"
	case CodeInvalidSignature:
		return "INVALID_SIGNATURE"
	case CodeIllegalChars:
		return "ILLEGAL_CHARS"
	case CodeTooManyParams:
		return "TOO_MANY_PARAMETERS"
	case CodeMandatoryParam:
		return "MANDATORY_PARAM_EMPTY_OR_MALFORMED"
	case CodeUnknownParam:
		return "UNKNOWN_PARAM"
	case CodeBadPrecision:
		return "BAD_PRECISION"
	case CodeInvalidTIF:
		return "INVALID_TIF"
	case CodeInvalidOrderType:
		return "INVALID_ORDER_TYPE"
	case CodeInvalidSide:
		return "INVALID_SIDE"
	case CodeBadInterval:
		return "INVALID_INTERVAL"
	case CodeBadSymbol:
		return "BAD_SYMBOL"
	case CodeInvalidListenKey:
		return "INVALID_LISTEN_KEY"
	case CodeOrderFilled:
		return "ORDER_HAS_FILLED"
	case CodeOrderDuplicated:
		return "ORDER_DUPLICATED"
	case CodeOrderCanceled:
		return "ORDER_CANCELLED"
	case CodeNewOrderRejected:
		return "NEW_ORDER_REJECTED"
	case CodeCancelRejected:
		return "CANCEL_REJECTED"
	case CodeNoSuchOrder:
		return "NO_SUCH_ORDER"
	case CodeBadAPIKeyFmt:
		return "BAD_API_KEY_FMT"
	case CodeRejectedKey:
		return "REJECTED_MBX_KEY"
	}
	return ""
}

// Order statuses (SPEC.md: the status and execution-type values).
const (
	StatusNew             = "NEW"
	StatusPartiallyFilled = "PARTIALLY_FILLED"
	StatusFilled          = "FILLED"
	StatusCanceled        = "CANCELED"
	StatusRejected        = "REJECTED"
)

// Open reports whether an order in status can still fill.
func Open(status string) bool { return status == StatusNew || status == StatusPartiallyFilled }
