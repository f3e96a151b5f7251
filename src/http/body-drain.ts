/**
 * How much of a refused request body the front reads and drops before it answers.
 *
 * A request refused before its body was read (too large, bad credentials) is answered only once
 * the body has arrived, up to this many bytes past the limit: uWS 20.30 closes a connection
 * whose request body is still arriving after the answer, and a client that is still sending then
 * sees a reset instead of the answer (a 100 MB chunked upload lost its 413 about 4 times in 10
 * with 16 MiB). Reading and dropping costs parsing only, no memory: bodies up to this size past
 * the limit get their answer; beyond it the connection is answered and closed, and such a
 * client may see the reset.
 */
export const DRAIN_LIMIT_BYTES = 256 * 1024 * 1024;

/**
 * A route's own limit (an upload) refuses a declared length this far past it at once, before the
 * body is sent: a client that waits for an answer before sending (or sends headers only) gets it.
 */
export const ANSWER_AT_ONCE_PAST_BYTES = 16 * 1024 * 1024;
