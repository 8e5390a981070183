/**
 * @module
 * The wire pieces and expectations the review table's theme files (framing_review_*.ts) share: a 200 status
 * line, a chunked head and body, a head with Content-Length 5, and the outcomes a case expects.
 */

export const ok = "HTTP/1.1 200 OK\r\n";
export const te = `${ok}Transfer-Encoding: chunked\r\n\r\n`;
export const hello = "5\r\nhello\r\n0\r\n\r\n";
/** A 200 whose head holds `fields` then Content-Length 5, and the body "hello". */
export const cl5 = (fields: string) => `${ok}${fields}Content-Length: 5\r\n\r\nhello`;
export const fine = (status = 200, body = 5, keepAlive = true) => ({ status, body, keepAlive });
export const fails = { error: true } as const;
export const cut = { incomplete: true } as const;
