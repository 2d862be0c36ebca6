/** Where the proxies are served (kept apart so a client can name them without loading the proxy). */
export const GLOBAL_PROXY_PREFIX = '/apis/search.karmada.io/v1alpha1/proxying/karmada/proxy';
export const CACHE_SEARCH_PREFIX = '/apis/search.karmada.io/v1alpha1/search/cache';
/** `/apis/cluster.karmada.io/v1alpha1/clusters/<name>/proxy[/<path>]`. */
export const CLUSTER_PROXY_PATH = /^\/apis\/cluster\.karmada\.io\/v1alpha1\/clusters\/([^/]+)\/proxy(\/.*)?$/;
