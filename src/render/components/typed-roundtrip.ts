/**
 * The typed round-trip of clusterctl (spec R0.7): an object converted to its k8s.io/api v0.36 Go type and back with
 * `runtime.DefaultUnstructuredConverter`. The result follows the Go struct tags: fields without `omitempty` are
 * always emitted (nil → null), `omitempty` zero values are dropped, structs are never "empty" (`status: {}`),
 * unknown fields are dropped, quantities are canonicalised.
 *
 * Schemas below list the fields of each type with their tags: `name` (always emitted), `name,o` (omitempty),
 * `*` (pointer: a present zero value is kept). Structs marked `open` keep fields we do not model (as they are),
 * so a field added to Kubernetes after this table was written is never lost; closed structs drop unknown fields
 * as Go does. Unchanged subtrees are returned by reference, so the text splicer skips them cheaply.
 */
import { canonicalQuantity } from './quantity.js';
import { isObject as isObj } from '../../go/index.js';

type Ty =
  | { k: 'str' | 'int' | 'bool' | 'float' | 'raw' | 'qty' | 'ios' | 'time' }
  | { k: 'arr'; el: () => Ty }
  | { k: 'map'; el: () => Ty }
  | { k: 'struct'; fields: Field[]; open: boolean };

interface Field {
  name: string;
  t: () => Ty;
  omit: boolean;
  ptr: boolean;
}

const STR: Ty = { k: 'str' };
const INT: Ty = { k: 'int' };
const BOOL: Ty = { k: 'bool' };
const FLOAT: Ty = { k: 'float' };
const RAW: Ty = { k: 'raw' };
const QTY: Ty = { k: 'qty' };
const IOS: Ty = { k: 'ios' };
const TIME: Ty = { k: 'time' };
const arr = (el: Ty | (() => Ty)): Ty => ({ k: 'arr', el: typeof el === 'function' ? el : () => el });
const map = (el: Ty | (() => Ty)): Ty => ({ k: 'map', el: typeof el === 'function' ? el : () => el });
const STRS = arr(STR);
const STRMAP = map(STR);

function struct(spec: Record<string, Ty | (() => Ty)>, open = false): Ty {
  const fields: Field[] = [];
  for (const [key, t] of Object.entries(spec)) {
    const m = /^([^,*]+)(.*)$/.exec(key) as RegExpExecArray;
    const name = m[1] as string;
    const flags = m[2] as string;
    fields.push({
      name,
      t: typeof t === 'function' ? t : () => t,
      omit: flags.includes('o'),
      ptr: flags.includes('*'),
    });
  }
  return { k: 'struct', fields, open };
}
const lazy = (f: () => Ty): (() => Ty) => {
  let v: Ty | undefined;
  return () => (v ??= f());
};

// ---- meta/v1 -------------------------------------------------------------------------------------------------
const OwnerReference = struct({
  apiVersion: STR,
  kind: STR,
  name: STR,
  uid: STR,
  'controller,o*': BOOL,
  'blockOwnerDeletion,o*': BOOL,
});
export const ObjectMeta = struct({
  'name,o': STR,
  'generateName,o': STR,
  'namespace,o': STR,
  'selfLink,o': STR,
  'uid,o': STR,
  'resourceVersion,o': STR,
  'generation,o': INT,
  'creationTimestamp,o': TIME,
  'deletionTimestamp,o*': TIME,
  'deletionGracePeriodSeconds,o*': INT,
  'labels,o': STRMAP,
  'annotations,o': STRMAP,
  'ownerReferences,o': arr(OwnerReference),
  'finalizers,o': STRS,
  'managedFields,o': arr(RAW),
});
const LabelSelector = struct({
  'matchLabels,o': STRMAP,
  'matchExpressions,o': arr(struct({ key: STR, operator: STR, 'values,o': STRS })),
});
const TYPE_META = { 'apiVersion,o': STR, 'kind,o': STR };

// ---- core/v1 (pod template) ----------------------------------------------------------------------------------
const LocalObjectReference = { 'name,o': STR };
const KeySelector = struct({ ...LocalObjectReference, key: STR, 'optional,o*': BOOL }, true);
const ObjectFieldSelector = struct({ 'apiVersion,o': STR, fieldPath: STR });
const ResourceFieldSelector = struct({ 'containerName,o': STR, resource: STR, 'divisor,o': QTY });
const EnvVar = struct({
  name: STR,
  'value,o': STR,
  'valueFrom,o*': struct(
    {
      'fieldRef,o*': ObjectFieldSelector,
      'resourceFieldRef,o*': ResourceFieldSelector,
      'configMapKeyRef,o*': KeySelector,
      'secretKeyRef,o*': KeySelector,
    },
    true,
  ),
});
const EnvFromSource = struct(
  {
    'prefix,o': STR,
    'configMapRef,o*': struct({ ...LocalObjectReference, 'optional,o*': BOOL }),
    'secretRef,o*': struct({ ...LocalObjectReference, 'optional,o*': BOOL }),
  },
  true,
);
const ResourceRequirements = struct({
  'limits,o': map(QTY),
  'requests,o': map(QTY),
  'claims,o': arr(struct({ name: STR, 'request,o': STR })),
});
const HTTPGetAction = struct({
  'path,o': STR,
  port: IOS,
  'host,o': STR,
  'scheme,o': STR,
  'httpHeaders,o': arr(struct({ name: STR, value: STR })),
});
const TCPSocketAction = struct({ port: IOS, 'host,o': STR });
const ExecAction = struct({ 'command,o': STRS });
const ProbeHandler = {
  'exec,o*': ExecAction,
  'httpGet,o*': HTTPGetAction,
  'tcpSocket,o*': TCPSocketAction,
  'grpc,o*': struct({ port: INT, 'service*': STR }),
};
const Probe = struct(
  {
    ...ProbeHandler,
    'initialDelaySeconds,o': INT,
    'timeoutSeconds,o': INT,
    'periodSeconds,o': INT,
    'successThreshold,o': INT,
    'failureThreshold,o': INT,
    'terminationGracePeriodSeconds,o*': INT,
  },
  true,
);
const LifecycleHandler = struct(
  {
    'exec,o*': ExecAction,
    'httpGet,o*': HTTPGetAction,
    'tcpSocket,o*': TCPSocketAction,
    'sleep,o*': struct({ seconds: INT }),
  },
  true,
);
const SELinuxOptions = struct({ 'user,o': STR, 'role,o': STR, 'type,o': STR, 'level,o': STR });
const WindowsOptions = struct({
  'gmsaCredentialSpecName,o*': STR,
  'gmsaCredentialSpec,o*': STR,
  'runAsUserName,o*': STR,
  'hostProcess,o*': BOOL,
});
const ProfileRef = struct({ type: STR, 'localhostProfile,o*': STR });
const SecurityContext = struct(
  {
    'capabilities,o*': struct({ 'add,o': STRS, 'drop,o': STRS }),
    'privileged,o*': BOOL,
    'seLinuxOptions,o*': SELinuxOptions,
    'windowsOptions,o*': WindowsOptions,
    'runAsUser,o*': INT,
    'runAsGroup,o*': INT,
    'runAsNonRoot,o*': BOOL,
    'readOnlyRootFilesystem,o*': BOOL,
    'allowPrivilegeEscalation,o*': BOOL,
    'procMount,o*': STR,
    'seccompProfile,o*': ProfileRef,
    'appArmorProfile,o*': ProfileRef,
  },
  true,
);
const Container = struct(
  {
    name: STR,
    'image,o': STR,
    'command,o': STRS,
    'args,o': STRS,
    'workingDir,o': STR,
    'ports,o': arr(
      struct({ 'name,o': STR, 'hostPort,o': INT, containerPort: INT, 'protocol,o': STR, 'hostIP,o': STR }),
    ),
    'envFrom,o': arr(EnvFromSource),
    'env,o': arr(EnvVar),
    'resources,o': ResourceRequirements,
    'resizePolicy,o': arr(struct({ resourceName: STR, restartPolicy: STR })),
    'restartPolicy,o*': STR,
    'restartPolicyRules,o': arr(RAW),
    'volumeMounts,o': arr(
      struct({
        name: STR,
        'readOnly,o': BOOL,
        'recursiveReadOnly,o*': STR,
        mountPath: STR,
        'subPath,o': STR,
        'mountPropagation,o*': STR,
        'subPathExpr,o': STR,
      }),
    ),
    'volumeDevices,o': arr(struct({ name: STR, devicePath: STR })),
    'livenessProbe,o*': Probe,
    'readinessProbe,o*': Probe,
    'startupProbe,o*': Probe,
    'lifecycle,o*': struct({ 'postStart,o*': LifecycleHandler, 'preStop,o*': LifecycleHandler, 'stopSignal,o*': STR }),
    'terminationMessagePath,o': STR,
    'terminationMessagePolicy,o': STR,
    'imagePullPolicy,o': STR,
    'securityContext,o*': SecurityContext,
    'stdin,o': BOOL,
    'stdinOnce,o': BOOL,
    'tty,o': BOOL,
  },
  true,
);
const KeyToPath = struct({ key: STR, path: STR, 'mode,o*': INT });
const DownwardAPIVolumeFile = struct({
  path: STR,
  'fieldRef,o*': ObjectFieldSelector,
  'resourceFieldRef,o*': ResourceFieldSelector,
  'mode,o*': INT,
});
const VolumeProjection = struct(
  {
    'secret,o*': struct({ ...LocalObjectReference, 'items,o': arr(KeyToPath), 'optional,o*': BOOL }),
    'downwardAPI,o*': struct({ 'items,o': arr(DownwardAPIVolumeFile) }),
    'configMap,o*': struct({ ...LocalObjectReference, 'items,o': arr(KeyToPath), 'optional,o*': BOOL }),
    'serviceAccountToken,o*': struct({ 'audience,o': STR, 'expirationSeconds,o*': INT, path: STR }),
  },
  true,
);
const Volume = struct(
  {
    name: STR,
    'hostPath,o*': struct({ path: STR, 'type,o*': STR }),
    'emptyDir,o*': struct({ 'medium,o': STR, 'sizeLimit,o*': QTY }),
    'secret,o*': struct({
      'secretName,o': STR,
      'items,o': arr(KeyToPath),
      'defaultMode,o*': INT,
      'optional,o*': BOOL,
    }),
    'configMap,o*': struct({
      ...LocalObjectReference,
      'items,o': arr(KeyToPath),
      'defaultMode,o*': INT,
      'optional,o*': BOOL,
    }),
    'persistentVolumeClaim,o*': struct({ claimName: STR, 'readOnly,o': BOOL }),
    'projected,o*': struct({ sources: arr(VolumeProjection), 'defaultMode,o*': INT }),
    'downwardAPI,o*': struct({ 'items,o': arr(DownwardAPIVolumeFile), 'defaultMode,o*': INT }),
    'csi,o*': struct(
      {
        driver: STR,
        'readOnly,o*': BOOL,
        'fsType,o*': STR,
        'volumeAttributes,o': STRMAP,
        'nodePublishSecretRef,o*': struct(LocalObjectReference),
      },
      true,
    ),
  },
  true,
);
const NodeSelectorTerm = struct({
  'matchExpressions,o': arr(struct({ key: STR, operator: STR, 'values,o': STRS })),
  'matchFields,o': arr(struct({ key: STR, operator: STR, 'values,o': STRS })),
});
const PodAffinityTerm = struct({
  'labelSelector,o*': LabelSelector,
  'namespaces,o': STRS,
  topologyKey: STR,
  'namespaceSelector,o*': LabelSelector,
  'matchLabelKeys,o': STRS,
  'mismatchLabelKeys,o': STRS,
});
const PodAffinity = struct({
  'requiredDuringSchedulingIgnoredDuringExecution,o': arr(PodAffinityTerm),
  'preferredDuringSchedulingIgnoredDuringExecution,o': arr(struct({ weight: INT, podAffinityTerm: PodAffinityTerm })),
});
const Affinity = struct({
  'nodeAffinity,o*': struct({
    'requiredDuringSchedulingIgnoredDuringExecution,o*': struct({ nodeSelectorTerms: arr(NodeSelectorTerm) }),
    'preferredDuringSchedulingIgnoredDuringExecution,o': arr(struct({ weight: INT, preference: NodeSelectorTerm })),
  }),
  'podAffinity,o*': PodAffinity,
  'podAntiAffinity,o*': PodAffinity,
});
const PodSecurityContext = struct(
  {
    'seLinuxOptions,o*': SELinuxOptions,
    'windowsOptions,o*': WindowsOptions,
    'runAsUser,o*': INT,
    'runAsGroup,o*': INT,
    'runAsNonRoot,o*': BOOL,
    'supplementalGroups,o': arr(INT),
    'supplementalGroupsPolicy,o*': STR,
    'fsGroup,o*': INT,
    'sysctls,o': arr(struct({ name: STR, value: STR })),
    'fsGroupChangePolicy,o*': STR,
    'seccompProfile,o*': ProfileRef,
    'appArmorProfile,o*': ProfileRef,
    'seLinuxChangePolicy,o*': STR,
  },
  true,
);
const PodSpec = struct(
  {
    'volumes,o': arr(Volume),
    'initContainers,o': arr(Container),
    containers: arr(Container),
    'ephemeralContainers,o': arr(RAW),
    'restartPolicy,o': STR,
    'terminationGracePeriodSeconds,o*': INT,
    'activeDeadlineSeconds,o*': INT,
    'dnsPolicy,o': STR,
    'nodeSelector,o': STRMAP,
    'serviceAccountName,o': STR,
    'serviceAccount,o': STR,
    'automountServiceAccountToken,o*': BOOL,
    'nodeName,o': STR,
    'hostNetwork,o': BOOL,
    'hostPID,o': BOOL,
    'hostIPC,o': BOOL,
    'shareProcessNamespace,o*': BOOL,
    'securityContext,o*': PodSecurityContext,
    'imagePullSecrets,o': arr(struct(LocalObjectReference)),
    'hostname,o': STR,
    'subdomain,o': STR,
    'affinity,o*': Affinity,
    'schedulerName,o': STR,
    'tolerations,o': arr(
      struct({ 'key,o': STR, 'operator,o': STR, 'value,o': STR, 'effect,o': STR, 'tolerationSeconds,o*': INT }),
    ),
    'hostAliases,o': arr(struct({ ip: STR, 'hostnames,o': STRS })),
    'priorityClassName,o': STR,
    'priority,o*': INT,
    'dnsConfig,o*': struct({
      'nameservers,o': STRS,
      'searches,o': STRS,
      'options,o': arr(struct({ 'name,o': STR, 'value,o*': STR })),
    }),
    'readinessGates,o': arr(struct({ conditionType: STR })),
    'runtimeClassName,o*': STR,
    'enableServiceLinks,o*': BOOL,
    'preemptionPolicy,o*': STR,
    'overhead,o': map(QTY),
    'topologySpreadConstraints,o': arr(
      struct({
        maxSkew: INT,
        topologyKey: STR,
        whenUnsatisfiable: STR,
        'labelSelector,o*': LabelSelector,
        'minDomains,o*': INT,
        'nodeAffinityPolicy,o*': STR,
        'nodeTaintsPolicy,o*': STR,
        'matchLabelKeys,o': STRS,
      }),
    ),
    'setHostnameAsFQDN,o*': BOOL,
    'os,o*': struct({ name: STR }),
    'hostUsers,o*': BOOL,
    'schedulingGates,o': arr(struct({ name: STR })),
    'resourceClaims,o': arr(RAW),
    'resources,o*': ResourceRequirements,
    'hostnameOverride,o*': STR,
  },
  true,
);
const PodTemplateSpec = struct({ 'metadata,o': ObjectMeta, 'spec,o': PodSpec });
const Condition = struct(
  {
    type: STR,
    status: STR,
    'lastUpdateTime,o': TIME,
    'lastTransitionTime,o': TIME,
    'reason,o': STR,
    'message,o': STR,
  },
  true,
);

export const Deployment = struct({
  ...TYPE_META,
  'metadata,o': ObjectMeta,
  'spec,o': struct({
    'replicas,o*': INT,
    'selector*': LabelSelector,
    template: PodTemplateSpec,
    'strategy,o': struct({
      'type,o': STR,
      'rollingUpdate,o*': struct({ 'maxUnavailable,o*': IOS, 'maxSurge,o*': IOS }),
    }),
    'minReadySeconds,o': INT,
    'revisionHistoryLimit,o*': INT,
    'paused,o': BOOL,
    'progressDeadlineSeconds,o*': INT,
  }),
  'status,o': struct({
    'observedGeneration,o': INT,
    'replicas,o': INT,
    'updatedReplicas,o': INT,
    'readyReplicas,o': INT,
    'availableReplicas,o': INT,
    'unavailableReplicas,o': INT,
    'terminatingReplicas,o*': INT,
    'conditions,o': arr(Condition),
    'collisionCount,o*': INT,
  }),
});

export const DaemonSet = struct({
  ...TYPE_META,
  'metadata,o': ObjectMeta,
  'spec,o': struct({
    'selector*': LabelSelector,
    template: PodTemplateSpec,
    'updateStrategy,o': struct({
      'type,o': STR,
      'rollingUpdate,o*': struct({ 'maxUnavailable,o*': IOS, 'maxSurge,o*': IOS }),
    }),
    'minReadySeconds,o': INT,
    'revisionHistoryLimit,o*': INT,
  }),
  'status,o': struct({
    currentNumberScheduled: INT,
    numberMisscheduled: INT,
    desiredNumberScheduled: INT,
    numberReady: INT,
    'observedGeneration,o': INT,
    'updatedNumberScheduled,o': INT,
    'numberAvailable,o': INT,
    'numberUnavailable,o': INT,
    'collisionCount,o*': INT,
    'conditions,o': arr(Condition),
  }),
});

// ---- rbac/v1 -------------------------------------------------------------------------------------------------
const Subject = struct({ kind: STR, 'apiGroup,o': STR, name: STR, 'namespace,o': STR });
export const RoleBinding = struct({
  ...TYPE_META,
  'metadata,o': ObjectMeta,
  'subjects,o': arr(Subject),
  roleRef: struct({ apiGroup: STR, kind: STR, name: STR }),
});

// ---- admissionregistration v1 / v1beta1 ----------------------------------------------------------------------
const ServiceReference = struct({ namespace: STR, name: STR, 'path,o*': STR, 'port,o*': INT });
const WebhookClientConfig = struct({ 'url,o*': STR, 'service,o*': ServiceReference, 'caBundle,o': STR });
const RuleWithOperations = struct({
  'operations,o': STRS,
  'apiGroups,o': STRS,
  'apiVersions,o': STRS,
  'resources,o': STRS,
  'scope,o*': STR,
});
function webhookConfig(v1: boolean, mutating: boolean): Ty {
  const hook: Record<string, Ty> = {
    name: STR,
    clientConfig: WebhookClientConfig,
    'rules,o': arr(RuleWithOperations),
    'failurePolicy,o*': STR,
    'matchPolicy,o*': STR,
    'namespaceSelector,o*': LabelSelector,
    'objectSelector,o*': LabelSelector,
    [v1 ? 'sideEffects*' : 'sideEffects,o*']: STR,
    'timeoutSeconds,o*': INT,
    [v1 ? 'admissionReviewVersions' : 'admissionReviewVersions,o']: STRS,
    'matchConditions,o': arr(struct({ name: STR, expression: STR })),
  };
  if (mutating) hook['reinvocationPolicy,o*'] = STR;
  return struct({ ...TYPE_META, 'metadata,o': ObjectMeta, 'webhooks,o': arr(struct(hook)) });
}
export const MutatingWebhookConfigurationV1 = webhookConfig(true, true);
export const ValidatingWebhookConfigurationV1 = webhookConfig(true, false);
export const MutatingWebhookConfigurationV1beta1 = webhookConfig(false, true);
export const ValidatingWebhookConfigurationV1beta1 = webhookConfig(false, false);

// ---- apiextensions v1 / v1beta1 ------------------------------------------------------------------------------
const JSONSchemaProps: () => Ty = lazy(() =>
  struct({
    'id,o': STR,
    '$schema,o': STR,
    '$ref,o*': STR,
    'description,o': STR,
    'type,o': STR,
    'format,o': STR,
    'title,o': STR,
    'default,o*': RAW,
    'maximum,o*': FLOAT,
    'exclusiveMaximum,o': BOOL,
    'minimum,o*': FLOAT,
    'exclusiveMinimum,o': BOOL,
    'maxLength,o*': INT,
    'minLength,o*': INT,
    'pattern,o': STR,
    'maxItems,o*': INT,
    'minItems,o*': INT,
    'uniqueItems,o': BOOL,
    'multipleOf,o*': FLOAT,
    'enum,o': arr(RAW),
    'maxProperties,o*': INT,
    'minProperties,o*': INT,
    'required,o': STRS,
    'items,o*': SchemaOrArray,
    'allOf,o': arr(JSONSchemaProps),
    'oneOf,o': arr(JSONSchemaProps),
    'anyOf,o': arr(JSONSchemaProps),
    'not,o*': JSONSchemaProps,
    'properties,o': map(JSONSchemaProps),
    'additionalProperties,o*': SchemaOrBool,
    'patternProperties,o': map(JSONSchemaProps),
    'dependencies,o': map(RAW),
    'additionalItems,o*': SchemaOrBool,
    'definitions,o': map(JSONSchemaProps),
    'externalDocs,o*': struct({ 'description,o': STR, 'url,o': STR }),
    'example,o*': RAW,
    'nullable,o': BOOL,
    'x-kubernetes-preserve-unknown-fields,o*': BOOL,
    'x-kubernetes-embedded-resource,o': BOOL,
    'x-kubernetes-int-or-string,o': BOOL,
    'x-kubernetes-list-map-keys,o': STRS,
    'x-kubernetes-list-type,o*': STR,
    'x-kubernetes-map-type,o*': STR,
    'x-kubernetes-validations,o': arr(
      struct({
        rule: STR,
        'message,o': STR,
        'messageExpression,o': STR,
        'reason,o*': STR,
        'fieldPath,o': STR,
        'optionalOldSelf,o*': BOOL,
      }),
    ),
  }),
);
/** JSONSchemaPropsOrArray / OrBool have custom JSON marshalling: a schema, a list of schemas, or a bool. */
const SchemaOrArray: () => Ty = () => ({ k: 'raw', special: 'schemaOrArray' }) as unknown as Ty;
const SchemaOrBool: () => Ty = () => ({ k: 'raw', special: 'schemaOrBool' }) as unknown as Ty;

const CRDNames = struct({
  plural: STR,
  'singular,o': STR,
  'shortNames,o': STRS,
  kind: STR,
  'listKind,o': STR,
  'categories,o': STRS,
});
const CRDStatus = struct({
  conditions: arr(
    struct({ type: STR, status: STR, 'lastTransitionTime,o': TIME, 'reason,o': STR, 'message,o': STR }),
  ),
  acceptedNames: CRDNames,
  storedVersions: STRS,
});
const Subresources = struct({
  'status,o*': struct({}),
  'scale,o*': struct({ specReplicasPath: STR, statusReplicasPath: STR, 'labelSelectorPath,o*': STR }),
});
const Validation = struct({ 'openAPIV3Schema,o*': JSONSchemaProps });
function columns(v1: boolean): Ty {
  return arr(
    struct({
      name: STR,
      type: STR,
      'format,o': STR,
      'description,o': STR,
      'priority,o': INT,
      [v1 ? 'jsonPath' : 'JSONPath']: STR,
    }),
  );
}
const CRDVersion = (v1: boolean): Ty =>
  struct({
    name: STR,
    served: BOOL,
    storage: BOOL,
    'deprecated,o': BOOL,
    'deprecationWarning,o*': STR,
    'schema,o*': Validation,
    'subresources,o*': Subresources,
    'additionalPrinterColumns,o': columns(v1),
    'selectableFields,o': arr(struct({ jsonPath: STR })),
  });
const CRDClientConfig = struct({ 'url,o*': STR, 'service,o*': ServiceReference, 'caBundle,o': STR });

export const CustomResourceDefinitionV1 = struct({
  ...TYPE_META,
  'metadata,o': ObjectMeta,
  spec: struct({
    group: STR,
    names: CRDNames,
    scope: STR,
    versions: arr(CRDVersion(true)),
    'conversion,o*': struct({
      strategy: STR,
      'webhook,o*': struct({ 'clientConfig,o*': CRDClientConfig, conversionReviewVersions: STRS }),
    }),
    'preserveUnknownFields,o': BOOL,
  }),
  'status,o': CRDStatus,
});
export const CustomResourceDefinitionV1beta1 = struct({
  ...TYPE_META,
  'metadata,o': ObjectMeta,
  spec: struct({
    group: STR,
    'version,o': STR,
    names: CRDNames,
    scope: STR,
    'validation,o*': Validation,
    'subresources,o*': Subresources,
    'versions,o': arr(CRDVersion(false)),
    'additionalPrinterColumns,o': columns(false),
    'selectableFields,o': arr(struct({ jsonPath: STR })),
    'conversion,o*': struct({
      strategy: STR,
      'webhookClientConfig,o*': CRDClientConfig,
      'conversionReviewVersions,o': STRS,
    }),
    'preserveUnknownFields,o*': BOOL,
  }),
  'status,o': CRDStatus,
});

// ---- the converter -------------------------------------------------------------------------------------------

const ABSENT = Symbol('absent');

/** Unstructured value of a Go zero value of type t (non-pointer). */
function zero(t: Ty): unknown {
  switch (t.k) {
    case 'str':
      return '';
    case 'int':
    case 'float':
      return 0;
    case 'bool':
      return false;
    case 'qty':
      return '0';
    case 'ios':
      return 0;
    case 'struct':
      return convStruct({}, t);
    default:
      return null; // nil slice, map, interface, pointer
  }
}

function isZero(v: unknown, t: Ty): boolean {
  switch (t.k) {
    case 'str':
      return v === '';
    case 'int':
    case 'float':
      return v === 0;
    case 'bool':
      return v === false;
    case 'arr':
      return v === null || (Array.isArray(v) && v.length === 0);
    case 'map':
      return v === null || (isObj(v) && Object.keys(v).length === 0);
    case 'raw':
      return v === null;
    case 'time':
      return v === null || v === '';
    default:
      return false; // structs (incl. Quantity, IntOrString) are never empty
  }
}

function conv(v: unknown, t: Ty): unknown {
  switch (t.k) {
    case 'struct':
      return isObj(v) ? convStruct(v, t) : v;
    case 'arr': {
      if (!Array.isArray(v)) return v;
      const el = t.el();
      let changed = false;
      const out = v.map((x) => {
        const y = x === null ? zero(el) : conv(x, el);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    case 'map': {
      if (!isObj(v)) return v;
      const el = t.el();
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        const x = v[k];
        const y = x === null ? zero(el) : conv(x, el);
        if (y !== x) changed = true;
        out[k] = y;
      }
      return changed ? out : v;
    }
    case 'qty':
      return typeof v === 'string' || typeof v === 'number' ? canonicalQuantity(v) : v;
    case 'raw': {
      const special = (t as { special?: string }).special;
      if (special === 'schemaOrArray') {
        if (Array.isArray(v)) return v.length > 0 ? conv(v, arr(JSONSchemaProps)) : null;
        return isObj(v) ? convStruct(v, JSONSchemaProps() as Ty & { k: 'struct' }) : v;
      }
      if (special === 'schemaOrBool') {
        if (typeof v === 'boolean') return v;
        return isObj(v) ? convStruct(v, JSONSchemaProps() as Ty & { k: 'struct' }) : v;
      }
      return v;
    }
    default:
      return v;
  }
}

interface Prepared {
  byName: Map<string, Field>;
  /** Fields that appear in the output when absent from the input, with their value. */
  absent: Array<[string, unknown]>;
}
const prepared = new WeakMap<object, Prepared>();

function prepare(t: Ty & { k: 'struct' }): Prepared {
  let p = prepared.get(t);
  if (p) return p;
  p = { byName: new Map(), absent: [] };
  prepared.set(t, p);
  for (const f of t.fields) {
    p.byName.set(f.name, f);
    const ft = f.t();
    if (ft.k === 'time') continue; // metav1.Time: omitzero
    if (f.ptr) {
      if (!f.omit) p.absent.push([f.name, null]);
      continue;
    }
    const z = zero(ft);
    if (!(f.omit && isZero(z, ft))) p.absent.push([f.name, z]);
  }
  return p;
}

function convStruct(v: Record<string, unknown>, t: Ty & { k: 'struct' }): Record<string, unknown> {
  const p = prepare(t);
  const out: Record<string, unknown> = {};
  let changed = false;
  for (const k of Object.keys(v)) {
    const iv = v[k];
    const f = p.byName.get(k);
    if (f === undefined) {
      if (t.open) out[k] = iv;
      else changed = true;
      continue;
    }
    const ft = f.t();
    let val: unknown;
    if (iv === null || iv === undefined) {
      if (ft.k === 'time') val = ABSENT;
      else if (f.ptr) val = f.omit ? ABSENT : null;
      else {
        const z = zero(ft);
        val = f.omit && isZero(z, ft) ? ABSENT : z;
      }
    } else {
      const c = conv(iv, ft);
      val = !f.ptr && f.omit && isZero(c, ft) ? ABSENT : c;
    }
    if (val === ABSENT) {
      changed = true;
      continue;
    }
    if (val !== iv) changed = true;
    out[k] = val;
  }
  for (const [name, z] of p.absent) {
    if (v[name] === undefined) {
      out[name] = z;
      changed = true;
    }
  }
  return changed ? out : v;
}

/** Round-trips an object through the given Go type (see the module comment). */
export function typedRoundTrip(obj: Record<string, unknown>, type: Ty): Record<string, unknown> {
  return convStruct(obj, type as Ty & { k: 'struct' });
}

export type TypedSchema = Ty;
