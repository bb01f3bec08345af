/**
 * Domain errors carry the HTTP status they mean; the central error handler is the only place that
 * turns them into `{error, title?, fields?}` bodies. `extra` adds documented flags (e.g. a login's
 * `remainingAttempts`) to that body.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: { title?: string; fields?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

type Options = HttpError['options'];
export const badRequest = (message: string, options?: Options) => new HttpError(400, message, options);
export const unauthorized = (message = 'Not logged in', options?: Options) => new HttpError(401, message, options);
export const forbidden = (message = 'Not allowed', options?: Options) => new HttpError(403, message, options);
export const notFound = (message = 'Not found', options?: Options) => new HttpError(404, message, options);
export const conflict = (message: string, options?: Options) => new HttpError(409, message, options);
export const tooMany = (message: string, options?: Options) => new HttpError(429, message, options);
export const unavailable = (message: string, options?: Options) => new HttpError(503, message, options);
