/**
 * Errors of the PKI module. Everything it throws on purpose is a {@link PkiError}, so a caller (the
 * `skctl up` command) can print the message — which always says what to do — instead of a stack.
 */

/** Base class of every error the PKI module throws on purpose. */
export class PkiError extends Error {
  override readonly name: string = 'PkiError';
}

/**
 * An option passed to a PKI function is invalid (empty name, bad IP address, non-positive validity,
 * unknown key, a CA that is not a CA...). `option` names the offending option.
 */
export class PkiOptionsError extends PkiError {
  override readonly name: string = 'PkiOptionsError';
  /** The option that was rejected, e.g. `ipAddresses` or `ca.keyPem`. */
  readonly option: string;
  /** What is wrong with it, without the option's name. */
  readonly problem: string;
  constructor(option: string, problem: string, options?: ErrorOptions) {
    super(`invalid ${option}: ${problem}`, options);
    this.option = option;
    this.problem = problem;
  }
}

/**
 * A file of the local PKI directory cannot be used (unreadable, not PEM, key and certificate do not
 * match, CA expired, half of a pair missing). The message names the file and says how to recover:
 * delete the PKI directory, which makes a new CA — so kubeconfigs written for the old one must be
 * written again.
 */
export class PkiFileError extends PkiError {
  override readonly name: string = 'PkiFileError';
  /** Absolute or caller-relative path of the offending file. */
  readonly file: string;
  /** The PKI directory to delete to recover. */
  readonly dir: string;
  constructor(file: string, dir: string, problem: string, options?: ErrorOptions) {
    super(
      `${file}: ${problem}. To recover, delete the directory ${dir} (a new CA is made on the next start; ` +
        'kubeconfigs that embed the old CA must then be written again)',
      options,
    );
    this.file = file;
    this.dir = dir;
  }
}
