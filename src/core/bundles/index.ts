export { BUNDLE_LIMITS, BundleError, checkSha256, readCentralDirectory, sha256Hex, type BundleLimits } from './archive';
export {
  BUNDLE_DOWNLOAD_TIMEOUT_MS,
  bundleSlug,
  cliBundlesFolder,
  downloadBundle,
  installBundle,
  openBundleBytes,
  openBundleFile,
  planBundle,
  type BundleField,
  type BundleManifest,
  type BundlePlan,
  type OpenedBundle,
} from './bundle';
