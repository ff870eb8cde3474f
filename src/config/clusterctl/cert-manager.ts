/** clusterctl's `cert-manager:` configuration (`client/config/cert_manager_client.go`) and its wait timeout. */
import { parseGoDuration } from './duration.js';

export const certManagerDefaultVersion = 'v1.21.1';
export const certManagerDefaultURL = `https://github.com/cert-manager/cert-manager/releases/${certManagerDefaultVersion}/cert-manager.yaml`;
/** `CertManagerDefaultTimeout.String()`. */
export const certManagerDefaultTimeout = '10m0s';
const defaultTimeoutNs = 600_000_000_000n;

export interface CertManagerConfig {
  /** Manifest URL, after envsubst with the OS environment. */
  url: string;
  version: string;
  /** As written in the config (a Go duration string), default `10m0s`. */
  timeout: string;
  externallyProvisioned: boolean;
}

/** The values clusterctl uses when `cert-manager:` is absent or a field is empty. */
export function defaultCertManagerConfig(): CertManagerConfig {
  return {
    url: certManagerDefaultURL,
    version: certManagerDefaultVersion,
    timeout: certManagerDefaultTimeout,
    externallyProvisioned: false,
  };
}

/** `certManagerClient.getWaitTimeout`: the configured timeout in nanoseconds; an invalid duration means 10m. */
export function certManagerWaitTimeout(config: Pick<CertManagerConfig, 'timeout'>): bigint {
  return parseGoDuration(config.timeout) ?? defaultTimeoutNs;
}
