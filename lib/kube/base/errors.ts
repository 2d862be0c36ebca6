/**
 * API errors as Kubernetes reports them: a `Status` object with the HTTP code, the reason, a message
 * a person can act on, and details (name, group, kind, causes) clients like kubectl read.
 */
import type { FieldError } from './field-errors.ts';
import { CAUSE_REASON, formatFieldError } from './field-errors.ts';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  /** 501: what the request asks for is not built for this target (a proxied request to a Pull cluster). */
  | 'NotImplemented'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The `Status` object (meta.k8s.io/v1). */
export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** An expected API failure, rendered as a Kubernetes Status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  toStatus(): StatusObject {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** How Kubernetes names a resource in messages: `deployments.apps`, `configmaps`. */
export function qualifiedResource(plural: string, group: string): string {
  return group ? `${plural}.${group}` : plural;
}

/** How Kubernetes names a kind in Invalid messages: `Deployment.apps`, `ConfigMap`. */
export function qualifiedKind(kind: string, group: string): string {
  return group ? `${kind}.${group}` : kind;
}

export const apiErrors = {
  badRequest: (message: string, causes?: StatusCause[]) =>
    new ApiError(400, 'BadRequest', message, causes ? { causes } : undefined),
  unauthorized: (message = 'Unauthorized') => new ApiError(401, 'Unauthorized', message),
  forbidden: (message: string, details?: StatusDetails) => new ApiError(403, 'Forbidden', message, details),
  notFound: (plural: string, group: string, name: string, kind = plural) =>
    new ApiError(404, 'NotFound', `${qualifiedResource(plural, group)} "${name}" not found`, { name, group, kind }),
  routeNotFound: (path: string) =>
    new ApiError(404, 'NotFound', `the server could not find the requested resource (${path})`, {}),
  methodNotAllowed: (method: string, what: string) =>
    new ApiError(
      405,
      'MethodNotAllowed',
      `the server does not allow this method on the requested resource: ${method} ${what}`,
    ),
  notAcceptable: (accepted: string[]) =>
    new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`),
  alreadyExists: (plural: string, group: string, name: string, kind = plural) =>
    new ApiError(409, 'AlreadyExists', `${qualifiedResource(plural, group)} "${name}" already exists`, {
      name,
      group,
      kind,
    }),
  conflict: (plural: string, group: string, name: string, detail: string, kind = plural) =>
    new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedResource(plural, group)} "${name}": ${detail}`,
      {
        name,
        group,
        kind,
      },
    ),
  gone: (message: string) => new ApiError(410, 'Gone', message),
  invalid: (kind: string, group: string, name: string, errors: FieldError[]) => {
    const lines = errors.map(formatFieldError);
    const body = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
    return new ApiError(422, 'Invalid', `${qualifiedKind(kind, group)} "${name}" is invalid: ${body}`, {
      name,
      group,
      kind,
      causes: errors.map((e) => ({
        reason: CAUSE_REASON[e.type],
        message: formatFieldError(e).slice(e.field ? e.field.length + 2 : 0),
        field: e.field,
      })),
    });
  },
  tooLarge: (message: string) => new ApiError(413, 'RequestEntityTooLarge', message),
  unsupportedMediaType: (contentType: string, accepted: string[]) =>
    new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format (${contentType || 'no Content-Type'}) - accepted media types include: ${accepted.join(', ')}`,
    ),
  internal: (message: string) => new ApiError(500, 'InternalError', `Internal error occurred: ${message}`),
};
