import type { Schema } from '../base/schema.ts';
import { PatchError } from '../../util/patch-error.ts';
import { applyJsonPatch } from '../../util/json-patch.ts';
import { applyMergePatch } from './merge-patch.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';

/** The PATCH media types, in the order Kubernetes lists them: JSON patch, merge patch, strategic merge patch. */
export const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
] as const;

/** One of {@link PATCH_CONTENT_TYPES}. */
export type PatchContentType = (typeof PATCH_CONTENT_TYPES)[number];

/** What the resource being patched accepts. */
export interface ApplyPatchOptions {
  /**
   * Whether strategic merge patch is accepted: true for built-in kinds, false for custom resources,
   * which Kubernetes answers with 415 because they carry no patch strategy metadata.
   */
  strategicAllowed: boolean;
}

/**
 * Applies a PATCH body of media type `contentType` (parameters such as `; charset=utf-8` ignored) to
 * `doc`, picking the flavour the way the API server does, and returns the patched copy. A media type
 * the resource does not accept is a 415 PatchError whose message lists the accepted ones, worded as
 * Kubernetes words it.
 */
export function applyPatch(
  contentType: string,
  doc: unknown,
  patch: unknown,
  schema: Schema | undefined,
  options: ApplyPatchOptions,
): unknown {
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  switch (mediaType) {
    case 'application/json-patch+json':
      return applyJsonPatch(doc, patch, { replaceAddsMissingMember: true });
    case 'application/merge-patch+json':
      return applyMergePatch(doc, patch);
    case 'application/strategic-merge-patch+json':
      if (options.strategicAllowed) return applyStrategicMergePatch(doc, patch, schema);
      break;
  }
  const accepted = PATCH_CONTENT_TYPES.filter(
    (type) => options.strategicAllowed || type !== 'application/strategic-merge-patch+json',
  );
  throw new PatchError(
    415,
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}
