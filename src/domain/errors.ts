/** The one error type of the API: a code, a message, an HTTP status and extra fields. */

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'REQUEST_VARIABLE_MISSING'
  | 'REQUEST_VARIABLE_INVALID'
  | 'REQUEST_CONFUSING_VAR'
  | 'EXPECTATION_MISMATCH'
  | 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'
  | 'INVALID_JSON'
  | 'BAD_NARROW'
  | 'NOT_FOUND'
  | 'UNAUTHORIZED'
  | 'INVALID_API_KEY'
  | 'USER_DEACTIVATED'
  | 'REALM_DEACTIVATED'
  /** Zulip's InvalidSubdomainError: the request's host names no organization. */
  | 'NONEXISTENT_SUBDOMAIN'
  | 'AUTHENTICATION_FAILED'
  | 'RATE_LIMIT_HIT'
  | 'BAD_EVENT_QUEUE_ID'
  | 'STREAM_DOES_NOT_EXIST'
  | 'STREAM_WILDCARD_MENTION_NOT_ALLOWED'
  | 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED'
  | 'REACTION_ALREADY_EXISTS'
  | 'CHANNEL_ALREADY_EXISTS'
  | 'REACTION_DOES_NOT_EXIST'
  | 'UNAUTHORIZED_PRINCIPAL'
  | 'CANNOT_DEACTIVATE_LAST_USER'
  | 'CANNOT_DEACTIVATE_GROUP_IN_USE'
  | 'INVITATION_FAILED'
  | 'PUSH_SERVICE_NOT_CONFIGURED'
  | 'INVALID_PUSH_DEVICE_TOKEN'
  | 'INVALID_REMOTE_PUSH_DEVICE_TOKEN'
  | 'PAYLOAD_TOO_LARGE'
  | 'REALM_UPLOAD_QUOTA'
  | 'BAD_IMAGE'
  | 'UNSUPPORTED_WEBHOOK_EVENT_TYPE'
  | 'MISSING_HTTP_EVENT_HEADER'
  | 'INTERNAL_SERVER_ERROR'
  /** Zulip's ServerNotReadyError: here, the store cannot write until it is recovered (503). */
  | 'SERVER_NOT_READY';

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
    /** Response headers the error needs (Retry-After, WWW-Authenticate). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (msg: string, extra: Record<string, unknown> = {}) =>
  new ApiError('BAD_REQUEST', msg, 400, extra);

export const notFound = (msg = 'Not Found') => new ApiError('NOT_FOUND', msg, 404);

export const missingArgument = (name: string) =>
  new ApiError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name });

export const invalidArgument = (msg: string, name: string) =>
  new ApiError('BAD_REQUEST', msg, 400, { var_name: name });
