/** The product version, reported by `/version` and `skctl version` (kept equal to package.json by a test). */
export const PRODUCT_VERSION = '0.1.0';
