/**
 * ResourceRegistry admission, as karmada-search's REST strategy does it
 * (`pkg/apis/search/validation/validation.go`): the target clusters' field selector, each selector's
 * apiVersion (a group/version) and namespace (a DNS label), and OpenSearch addresses (http/https
 * URLs). Karmada accepts a selector with an empty kind, which selects nothing; here that is refused,
 * since nobody writes it on purpose.
 */
import type { KubeObject } from '../../api/object.ts';
import { childPath, type FieldError, fieldError } from '../../kube/base/field-errors.ts';
import { isDNS1123Label } from '../../util/validation.ts';
import { validateClusterAffinity } from './placement.ts';
import { list, record, text } from './shape.ts';

/** `schema.ParseGroupVersion`'s complaint about `apiVersion`, or undefined when it parses. */
export function groupVersionError(apiVersion: string): string | undefined {
  if (apiVersion === '' || apiVersion === '/') return undefined;
  const parts = apiVersion.split('/');
  if (parts.length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
  if (parts.some((p) => p === '') && parts.length === 2) return `unexpected GroupVersion string: ${apiVersion}`;
  return undefined;
}

export function validateResourceRegistry(obj: KubeObject, _old: KubeObject | undefined): FieldError[] {
  const spec = record(obj.spec) ?? {};
  const errors: FieldError[] = [...validateClusterAffinity(record(spec.targetCluster), 'spec.targetCluster')];
  list(spec.resourceSelectors).forEach((item, i) => {
    const selector = record(item) ?? {};
    const path = `spec.resourceSelectors[${i}]`;
    const apiVersion = text(selector.apiVersion);
    const gvError = groupVersionError(apiVersion);
    if (apiVersion === '') errors.push(fieldError.required(childPath(path, 'apiVersion'), 'apiVersion is required'));
    else if (gvError) errors.push(fieldError.invalid(childPath(path, 'apiVersion'), apiVersion, gvError));
    if (text(selector.kind) === '') {
      errors.push(
        fieldError.required(childPath(path, 'kind'), 'kind is required: a selector without one selects nothing'),
      );
    }
    const namespace = text(selector.namespace);
    if (namespace !== '') {
      for (const message of isDNS1123Label(namespace)) {
        errors.push(fieldError.invalid(childPath(path, 'namespace'), namespace, message));
      }
    }
  });
  const openSearch = record(record(spec.backendStore)?.openSearch);
  if (openSearch) {
    list(openSearch.addresses).forEach((address, i) => {
      const value = text(address);
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        url = undefined;
      }
      if (!url || !url.host || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        errors.push(
          fieldError.invalid(
            `spec.backendStore.openSearch.addresses[${i}]`,
            value,
            'must be a valid http or https URL with non-empty scheme and host',
          ),
        );
      }
    });
  }
  return errors;
}
