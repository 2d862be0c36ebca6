/**
 * The review APIs `kubectl auth whoami` and `kubectl auth can-i` use: objects that are created,
 * never stored, and answered from the asker's identity and the server's authorizer.
 */
import type { KubeObject } from '../../api/object.ts';
import { apiErrors } from '../base/errors.ts';
import type { ResourceDef } from '../catalog/resources.ts';
import type { RequestAttributes } from '../base/types.ts';
import { obj, openObject, str, strings, topLevel, bool, mapOf } from './schemas.ts';

type Obj = Record<string, unknown>;

function reviewDef(
  partial: Pick<ResourceDef, 'group' | 'version' | 'kind' | 'plural' | 'review' | 'schema'>,
): ResourceDef {
  return {
    ...partial,
    listKind: `${partial.kind}List`,
    singular: partial.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced: false,
    verbs: ['create'],
    statusSubresource: false,
    printerColumns: [],
    strategicMergePatch: false,
    nameRule: 'subdomain',
    preferred: true,
    origin: 'built-in',
  };
}

export function reviewDefs(): ResourceDef[] {
  return [
    reviewDef({
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'SelfSubjectReview',
      plural: 'selfsubjectreviews',
      schema: topLevel({ status: openObject() }),
      review: async (_body, { user }) => ({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        metadata: { creationTimestamp: null as unknown as string },
        status: { userInfo: { username: user.name, groups: user.groups } },
      }),
    }),
    reviewDef({
      group: 'authorization.k8s.io',
      version: 'v1',
      kind: 'SelfSubjectAccessReview',
      plural: 'selfsubjectaccessreviews',
      schema: topLevel({
        spec: obj({
          resourceAttributes: obj({
            namespace: str(),
            verb: str(),
            group: str(),
            version: str(),
            resource: str(),
            subresource: str(),
            name: str(),
            fieldSelector: openObject(),
            labelSelector: openObject(),
          }),
          nonResourceAttributes: obj({ path: str(), verb: str() }),
        }),
        status: obj({
          allowed: bool(),
          denied: bool(),
          reason: str(),
          evaluationError: str(),
          extra: mapOf(strings()),
        }),
      }),
      review: async (body: KubeObject, { authorize }) => {
        const spec = (body.spec ?? {}) as { resourceAttributes?: Obj; nonResourceAttributes?: Obj };
        const ra = spec.resourceAttributes;
        if (!ra && !spec.nonResourceAttributes) {
          throw apiErrors.invalid('SelfSubjectAccessReview', 'authorization.k8s.io', '', [
            {
              type: 'Invalid',
              field: 'spec.resourceAttributes',
              value: null,
              detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified',
            },
          ]);
        }
        let allowed: true | string = 'non-resource URLs are not authorized by this server';
        if (ra) {
          // `*` and verbs this API has no endpoint for (bind, escalate, ...) go to the authorizer as
          // asked: an admin may do anything, a viewer only reads.
          const verb = String(ra.verb ?? '') as RequestAttributes['verb'];
          allowed = verb
            ? await authorize({
                verb,
                group: String(ra.group ?? ''),
                resource: String(ra.resource ?? ''),
                ...(ra.subresource ? { subresource: String(ra.subresource) } : {}),
                ...(ra.namespace ? { namespace: String(ra.namespace) } : {}),
                ...(ra.name ? { name: String(ra.name) } : {}),
              })
            : 'spec.resourceAttributes.verb is required';
        }
        return {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          metadata: { creationTimestamp: null as unknown as string },
          spec: body.spec,
          status: allowed === true ? { allowed: true } : { allowed: false, reason: allowed },
        };
      },
    }),
  ];
}
