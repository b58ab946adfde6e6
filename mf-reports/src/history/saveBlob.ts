/** The entity kit's download (shared/ui saveBlob): one copy for every remote. */
export { saveBlob } from '@tongdai/ui';
