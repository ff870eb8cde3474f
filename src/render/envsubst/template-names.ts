/** clusterctl's template file names (`simple_processor.go` GetTemplateName / GetClusterClassTemplateName). */

/** `cluster-template.yaml`, or `cluster-template-<flavor>.yaml` for a non-empty flavor. */
export function templateFileName(flavor?: string): string {
  return flavor ? `cluster-template-${flavor}.yaml` : 'cluster-template.yaml';
}

/** `clusterclass-<name>.yaml`. */
export function clusterClassFileName(name: string): string {
  return `clusterclass-${name}.yaml`;
}
