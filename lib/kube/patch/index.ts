/**
 * The three Kubernetes PATCH flavours as pure functions over plain JSON values: RFC 6902 JSON patch,
 * RFC 7386 JSON merge patch and Kubernetes strategic merge patch, plus the dispatcher the API layer
 * calls with the request's Content-Type. JSON patch and PatchError live in lib/util, because the
 * core's overriders apply JSON patches too.
 */
export { type ApplyPatchOptions, applyPatch, PATCH_CONTENT_TYPES, type PatchContentType } from './dispatch.ts';
export { PatchError, type PatchErrorCode, type PatchErrorReason } from '../../util/patch-error.ts';
export { applyJsonPatch, type JsonPatchOp } from '../../util/json-patch.ts';
export { applyMergePatch } from './merge-patch.ts';
export { applyStrategicMergePatch } from './strategic-merge-patch.ts';
