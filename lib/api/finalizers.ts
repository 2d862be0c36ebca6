/** The finalizers of Foreground and Orphan deletion, which the garbage collector removes. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';
export const ORPHAN_FINALIZER = 'orphan';
