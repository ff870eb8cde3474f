/**
 * CAPZ's AzureMachine and AzureMachineTemplate webhooks, the part decidable offline. The rules follow
 * kubernetes-sigs/cluster-api-provider-azure at v1.25.1 and v1.26.0 (the files are the same in both):
 * internal/webhooks/azuremachine_validation.go (the spec checks both kinds share), azureimage_validation.go,
 * azuremachine_webhook.go, azuremachinetemplate_webhook.go, the defaulting of internal/api/v1beta1/azuremachine_default.go
 * and the CRD defaults of api/v1beta1 (azuremachine_types.go, types.go). Paths are printed as the webhooks write them:
 * relative to the spec (`osDisk.CachingType`), capitals included.
 */
import { parsesAsAuthorizedKey, decodeStdBase64 } from '../../go/index.js';
import { immutable } from './capz-webhooks.js';
import { at, clone, defined, rec, refuse, same, str, type Webhook, type WebhookError } from './webhook-fields.js';

type Obj = Record<string, unknown>;

const infra = 'infrastructure.cluster.x-k8s.io';
const capz = 'kubernetes-sigs/cluster-api-provider-azure';
const m = 'webhook/AzureMachine';
const mt = 'webhook/AzureMachineTemplate';

/** armcompute v5 `PossibleCachingTypesValues()` and `PossibleDiskStorageAccountTypesValues()`, as `%v` prints them. */
const cachingTypes = ['None', 'ReadOnly', 'ReadWrite'];
const storageAccountTypes = ['PremiumV2_LRS', 'Premium_LRS', 'Premium_ZRS', 'StandardSSD_LRS', 'StandardSSD_ZRS', 'Standard_LRS', 'UltraSSD_LRS'];
const ultra = 'UltraSSD_LRS';

/** A Go pointer, slice or map field: set when present and not null. */
const isSet = (v: unknown): boolean => v !== undefined && v !== null;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * The SSH key the defaulting webhook generates for an empty `sshPublicKey` (`SetDefaultAzureMachineSpecSSHPublicKey`):
 * a fixed valid ed25519 key stands for it, so two files that both leave it out compare equal.
 */
const generatedSshKey = 'c3NoLWVkMjU1MTkgQUFBQUMzTnphQzFsWkRJMU5URTVBQUFBSUFFQ0F3UUZCZ2NJQ1FvTERBME9EeEFSRWhNVUZSWVhHQmthR3h3ZEhoOGcK';
/** The role assignment name the defaulting webhook generates (`uuid.NewUUID()`), as a fixed GUID. */
const generatedRoleName = '00000000-0000-0000-0000-000000000000';

/** google/uuid `Parse`: 32 hex digits, the 36-character form with dashes, `{…}` or `urn:uuid:`. */
export function isGoogleUuid(s: string): boolean {
  const dashed = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
  if (s.length === 32) return /^[0-9a-fA-F]{32}$/.test(s);
  if (s.length === 36) return dashed.test(s);
  if (s.length === 38) return s.startsWith('{') && s.endsWith('}') && dashed.test(s.slice(1, -1));
  if (s.length === 45) return s.slice(0, 9).toLowerCase() === 'urn:uuid:' && dashed.test(s.slice(9));
  return false;
}

/**
 * `azureutil.ParseResourceID` (util/azure/azure.go): the `azure://` prefix dropped, then azcore's
 * `arm.ParseResourceID` (sdk/azcore/arm/internal/resource/resource_identifier.go): whether it parses.
 */
export function isAzureResourceID(raw: string): boolean {
  const id = raw.startsWith('azure://') ? raw.slice('azure://'.length) : raw;
  if (id === '' || !id.startsWith('/')) return false;
  const parts = id.split('/').filter((p) => p !== '');
  if (parts.length < 2) return false;
  const eq = (a: string | undefined, b: string): boolean => (a ?? '').toLowerCase() === b;
  if (!eq(parts[0], 'subscriptions') && !eq(parts[0], 'providers')) return false;
  type Parent = 'tenant' | 'subscription' | 'resourceGroup' | 'provider' | 'other';
  let parent: Parent = 'tenant';
  let rest = parts;
  for (;;) {
    if (rest.length === 0) return true;
    if (rest.length === 1) return !eq(rest[0], 'subscriptions') && !eq(rest[0], 'resourcegroups') && parent !== 'resourceGroup';
    if (eq(rest[0], 'providers') && (rest.length === 2 || eq(rest[2], 'providers'))) {
      if (parent !== 'subscription' && parent !== 'tenant') return false;
      parent = 'provider';
      rest = rest.slice(2);
    } else if (rest.length > 3 && eq(rest[0], 'providers')) {
      parent = 'other';
      rest = rest.slice(4);
    } else if (!eq(rest[0], 'providers')) {
      if (eq(rest[0], 'resourcegroups') && parent === 'subscription') parent = 'resourceGroup';
      else if (eq(rest[0], 'subscriptions') && parent === 'tenant') parent = 'subscription';
      else parent = 'other';
      rest = rest.slice(2);
    } else return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Defaults: the CRD's (identity None, osDisk.osType Linux, osDisk.cachingType None) and the defaulting webhook's.

function crdDefaults(spec: Obj): void {
  if (!str(spec.identity)) spec.identity = 'None';
  const osDisk = spec.osDisk;
  if (osDisk !== null && typeof osDisk === 'object' && !Array.isArray(osDisk)) {
    const d = osDisk as Obj;
    if (d.osType === undefined) d.osType = 'Linux';
    if (d.cachingType === undefined) d.cachingType = 'None';
  }
}

/** `SetDefaultAzureMachineSpecSSHPublicKey`, `…DataDisks` and `…NetworkInterfaces`: what both kinds default. */
function sharedDefaults(spec: Obj): void {
  crdDefaults(spec);
  if (!str(spec.sshPublicKey)) spec.sshPublicKey = generatedSshKey;
  const disks = list(spec.dataDisks).map(rec);
  const luns = new Set(disks.map((d) => d.lun).filter((l): l is number => typeof l === 'number'));
  for (const d of disks) {
    if (!isSet(d.lun)) {
      for (let l = 0; l < disks.length; l++) {
        if (!luns.has(l)) {
          d.lun = l;
          luns.add(l);
          break;
        }
      }
    }
    if (!str(d.cachingType)) d.cachingType = at(d, 'managedDisk.storageAccountType') === ultra ? 'None' : 'ReadWrite';
  }
  networkInterfaceDefaults(spec);
}

/** `SetDefaultAzureMachineSpecNetworkInterfaces`: the legacy subnet fields become the first interface. */
function networkInterfaceDefaults(spec: Obj): void {
  const nics = list(spec.networkInterfaces);
  if ((str(spec.subnetName) || isSet(spec.acceleratedNetworking)) && nics.length > 0) return;
  if (nics.length === 0) {
    const nic: Obj = { subnetName: spec.subnetName ?? '' };
    if (isSet(spec.acceleratedNetworking)) nic.acceleratedNetworking = spec.acceleratedNetworking;
    spec.networkInterfaces = [nic];
    delete spec.subnetName;
    delete spec.acceleratedNetworking;
  }
  for (const n of list(spec.networkInterfaces).map(rec)) if (!n.privateIPConfigs) n.privateIPConfigs = 1;
}

/** `SetDefaultsAzureMachine`: the shared defaults, the system-assigned identity's role, spot eviction, diagnostics. */
function azureMachineDefaults(input: Obj): Obj {
  const o = clone(input);
  const spec = rec(o.spec);
  sharedDefaults(spec);
  const role = spec.systemAssignedIdentityRole;
  if (!(str(spec.roleAssignmentName) && isSet(role) && str(rec(role).name)) && spec.identity === 'SystemAssigned') {
    const r: Obj = isSet(role) ? rec(role) : {};
    spec.systemAssignedIdentityRole = r;
    if (str(spec.roleAssignmentName)) {
      r.name = spec.roleAssignmentName;
      spec.roleAssignmentName = '';
    } else if (!str(r.name)) r.name = generatedRoleName;
    // Scope and definition default from the owning AzureCluster's subscription, which the files do not pin down.
    if (!str(r.scope)) r.scope = '/subscriptions/<the AzureCluster subscription>/';
    if (!str(r.definitionID)) r.definitionID = '/subscriptions/<the AzureCluster subscription>/providers/Microsoft.Authorization/roleDefinitions/<Contributor>';
  }
  const spot = spec.spotVMOptions;
  if (isSet(spot) && !isSet(rec(spot).evictionPolicy)) rec(spot).evictionPolicy = at(spec, 'osDisk.diffDiskSettings.option') === 'Local' ? 'Delete' : 'Deallocate';
  if (!isSet(spec.diagnostics)) spec.diagnostics = {};
  const diag = rec(spec.diagnostics);
  if (!isSet(diag.boot)) diag.boot = { storageAccountType: 'Managed' };
  return o;
}

/** The template webhook's `Default`: SSH key, data disks and network interfaces only. */
function azureMachineTemplateDefaults(input: Obj): Obj {
  const o = clone(input);
  const spec = at(o, 'spec.template.spec');
  if (spec !== null && typeof spec === 'object' && !Array.isArray(spec)) sharedDefaults(spec as Obj);
  return o;
}

// ---------------------------------------------------------------------------------------------------------------
// validateAzureMachineSpec (azuremachine_validation.go) and ValidateImage (azureimage_validation.go).

function image(rule: string, img: unknown): WebhookError[] {
  if (!isSet(img)) return []; // defaulted by the controller
  const i = rec(img);
  const out: WebhookError[] = [];
  let found = isSet(i.id);
  const hint = 'give the image one source: id, marketplace, sharedGallery or computeGallery';
  if (isSet(i.marketplace)) {
    if (found) out.push(refuse(rule, 'FieldValueForbidden', 'image.Marketplace', '', 'Marketplace cannot be used as an image ID has been specified', hint));
    else found = true;
  }
  if (isSet(i.sharedGallery)) {
    if (found) out.push(refuse(rule, 'FieldValueForbidden', 'image.SharedGallery', '', 'SharedGallery cannot be used as an image ID. Marketplace or ComputeGallery images has been specified', hint));
    else found = true;
  }
  if (isSet(i.computeGallery)) {
    if (found) out.push(refuse(rule, 'FieldValueForbidden', 'image.ComputeGallery', '', 'ComputeGallery cannot be used as an image ID. Marketplace or SharedGallery images has been specified', hint));
    else found = true;
  }
  if (!found) out.push(refuse(rule, 'FieldValueRequired', 'image', '', 'You must supply an ID, Marketplace or ComputeGallery image details', hint));
  const empty = (v: unknown): boolean => !str(v);
  if (isSet(i.marketplace)) {
    const mp = rec(i.marketplace);
    for (const [k, f] of [['Publisher', 'publisher'], ['Offer', 'offer'], ['SKU', 'sku'], ['Version', 'version']] as const) {
      if (empty(mp[f])) out.push(refuse(rule, 'FieldValueInvalid', `image.${k}`, '', `${k} cannot be empty when specifying an AzureMarketplaceImage`));
    }
  }
  if (isSet(i.sharedGallery)) {
    const sg = rec(i.sharedGallery);
    for (const [k, f] of [['SubscriptionID', 'subscriptionID'], ['ResourceGroup', 'resourceGroup'], ['Gallery', 'gallery'], ['Name', 'name'], ['Version', 'version']] as const) {
      if (empty(sg[f])) out.push(refuse(rule, 'FieldValueInvalid', `image.${k}`, '', `${k} cannot be empty when specifying an AzureSharedGalleryImage`));
    }
  }
  if (isSet(i.id) && i.id === '') out.push(refuse(rule, 'FieldValueInvalid', 'image.ID', '', 'ID cannot be empty when specifying an AzureImageByID'));
  if (isSet(i.computeGallery)) {
    const cg = rec(i.computeGallery);
    if (isSet(cg.subscriptionID) && !isSet(cg.resourceGroup)) out.push(refuse(rule, 'FieldValueInvalid', 'image.ResourceGroup', '', 'ResourceGroup cannot be empty when SubscriptionID is specified'));
    if (isSet(cg.resourceGroup) && !isSet(cg.subscriptionID)) out.push(refuse(rule, 'FieldValueInvalid', 'image.SubscriptionID', '', 'SubscriptionID cannot be empty when ResourceGroup is specified'));
  }
  return out;
}

function cachingType(rule: string, value: unknown, path: string, managedDisk: unknown): WebhookError[] {
  const ct = str(value) ?? '';
  const out: WebhookError[] = [];
  if (isSet(managedDisk) && rec(managedDisk).storageAccountType === ultra && ct !== 'None') {
    out.push(refuse(rule, 'FieldValueInvalid', `${path}.CachingType`, ct, `cachingType '${ct}' is not supported when storageAccountType is '${ultra}'. Allowed values are: 'None'`));
  }
  if (!cachingTypes.includes(ct)) out.push(refuse(rule, 'FieldValueInvalid', `${path}.CachingType`, ct, `allowed values are [${cachingTypes.join(' ')}]`));
  return out;
}

function managedDisk(rule: string, md: unknown, path: string, osDisk: boolean): WebhookError[] {
  const d = rec(md);
  const sat = str(d.storageAccountType) ?? '';
  const p = `${path}.StorageAccountType`;
  const out: WebhookError[] = [];
  if (osDisk && sat === ultra) out.push(refuse(rule, 'FieldValueInvalid', `${p}.managedDisks.storageAccountType`, sat, 'UltraSSD_LRS can only be used with data disks, it cannot be used with OS Disks'));
  if (sat === '') out.push(refuse(rule, 'FieldValueRequired', p, '', 'the Storage Account Type for Managed Disk cannot be empty'));
  else if (!storageAccountTypes.includes(sat)) out.push(refuse(rule, 'FieldValueInvalid', p, '', `allowed values are [${storageAccountTypes.join(' ')}]`));
  const des = at(d, 'securityProfile.diskEncryptionSet');
  if (osDisk && isSet(d.securityProfile) && isSet(des) && at(d, 'securityProfile.securityEncryptionType') !== 'DiskWithVMGuestState') {
    out.push(refuse(rule, 'FieldValueInvalid', `${path}.securityProfile.diskEncryptionSet`, str(rec(des).id) ?? '', 'diskEncryptionSet is only supported when securityEncryptionType is set to DiskWithVMGuestState'));
  }
  return out;
}

function osDisk(rule: string, disk: unknown): WebhookError[] {
  const d = rec(disk);
  const out: WebhookError[] = [];
  if (isSet(d.diskSizeGB)) {
    const size = Number(d.diskSizeGB);
    if (!(size > 0 && size <= 2048)) out.push(refuse(rule, 'FieldValueInvalid', 'osDisk.DiskSizeGB', '', 'the Disk size should be a value between 1 and 2048'));
  }
  if (!str(d.osType)) out.push(refuse(rule, 'FieldValueRequired', 'osDisk.OSType', '', 'the OS type cannot be empty'));
  out.push(...cachingType(rule, d.cachingType, 'osDisk', d.managedDisk));
  if (isSet(d.managedDisk)) out.push(...managedDisk(rule, d.managedDisk, 'osDisk.managedDisk', true));
  const diff = d.diffDiskSettings;
  if (isSet(diff) && isSet(d.managedDisk) && isSet(at(d, 'managedDisk.diskEncryptionSet'))) {
    out.push(refuse(rule, 'FieldValueInvalid', 'osDisk.managedDisks.diskEncryptionSet', str(at(d, 'managedDisk.diskEncryptionSet.id')) ?? '', "diskEncryptionSet is not supported when diffDiskSettings.option is 'Local'"));
  }
  if (isSet(diff) && isSet(rec(diff).placement) && rec(diff).option !== 'Local') {
    // The bad value as Go marshals the struct: option has no omitempty.
    const value = { option: str(rec(diff).option) ?? '', placement: rec(diff).placement };
    out.push(refuse(rule, 'FieldValueInvalid', 'osDisk.diffDiskSettings', value, "placement is only supported when diffDiskSettings.option is 'Local'", 'set diffDiskSettings.option: Local, or drop placement'));
  }
  return out;
}

function confidentialCompute(rule: string, spec: Obj): WebhookError[] {
  const type = str(at(spec, 'osDisk.managedDisk.securityProfile.securityEncryptionType')) ?? '';
  const profile = spec.securityProfile;
  if (!isSet(profile) || type === '') return [];
  const p = rec(profile);
  const out: WebhookError[] = [];
  if (p.securityType !== 'ConfidentialVM') out.push(refuse(rule, 'FieldValueInvalid', 'securityProfile.SecurityType', str(p.securityType) ?? '', "SecurityType should be set to 'ConfidentialVM' when securityEncryptionType is defined"));
  const uefi = p.uefiSettings;
  if (!isSet(uefi)) out.push(refuse(rule, 'FieldValueInvalid', 'securityProfile.UefiSettings', null, 'UefiSettings should be set when securityEncryptionType is defined'));
  else if (rec(uefi).vTpmEnabled !== true) out.push(refuse(rule, 'FieldValueInvalid', 'securityProfile.VTpmEnabled', rec(uefi).vTpmEnabled ?? null, 'VTpmEnabled should be set to true when securityEncryptionType is defined'));
  if (type === 'DiskWithVMGuestState') {
    if (p.encryptionAtHost === true) out.push(refuse(rule, 'FieldValueInvalid', 'securityProfile.EncryptionAtHost', true, "EncryptionAtHost cannot be set to 'true' when securityEncryptionType is set to 'DiskWithVMGuestState'"));
    if (isSet(uefi) && rec(uefi).secureBootEnabled !== true) {
      out.push(refuse(rule, 'FieldValueInvalid', 'securityProfile.SecureBootEnabled', rec(uefi).secureBootEnabled ?? null, "SecureBootEnabled should be set to true when securityEncryptionType is set to 'DiskWithVMGuestState'"));
    }
  }
  return out;
}

function sshKey(rule: string, value: unknown): WebhookError[] {
  const key = str(value) ?? '';
  const decoded = decodeStdBase64(key);
  const hint = 'sshPublicKey is the base64 of an authorized_keys line: base64 -w0 < ~/.ssh/id_ed25519.pub';
  if (decoded === null) return [refuse(rule, 'FieldValueInvalid', 'sshPublicKey', key, 'the SSH public key is not properly base64 encoded', hint)];
  if (!parsesAsAuthorizedKey(decoded)) return [refuse(rule, 'FieldValueInvalid', 'sshPublicKey', key, 'the SSH public key is not valid', hint)];
  return [];
}

function userAssignedIdentities(rule: string, spec: Obj): WebhookError[] {
  const ids = list(spec.userAssignedIdentities).map(rec);
  const identity = str(spec.identity) ?? '';
  const p = 'userAssignedIdentities';
  const out: WebhookError[] = [];
  if (ids.length > 0 && identity !== 'UserAssigned') out.push(refuse(rule, 'FieldValueInvalid', p, identity, "must be set to 'UserAssigned' when assigning any user identity to the machine", 'set identity: UserAssigned'));
  if (identity === 'UserAssigned') {
    if (ids.length === 0) out.push(refuse(rule, 'FieldValueRequired', p, '', "must be specified for the 'UserAssigned' identity type"));
    for (const id of ids) {
      const providerID = str(id.providerID) ?? '';
      if (providerID !== '' && !isAzureResourceID(providerID)) out.push(refuse(rule, 'FieldValueInvalid', p, providerID, 'must be a valid Azure resource ID'));
    }
  }
  return out;
}

function dataDisks(rule: string, disks: unknown): WebhookError[] {
  const out: WebhookError[] = [];
  const p = 'dataDisks';
  const names = new Set<string>();
  const luns = new Set<number>();
  for (const disk of list(disks).map(rec)) {
    const size = Number(disk.diskSizeGB ?? 0);
    if (!(size >= 4 && size <= 32767)) out.push(refuse(rule, 'FieldValueInvalid', `${p}.DiskSizeGB`, '', 'the disk size should be a value between 4 and 32767'));
    const name = str(disk.nameSuffix) ?? '';
    if (name === '') out.push(refuse(rule, 'FieldValueRequired', `${p}.NameSuffix`, '', 'the name suffix cannot be empty'));
    if (names.has(name)) out.push(refuse(rule, 'FieldValueDuplicate', p, name, '', 'give each data disk its own nameSuffix'));
    else names.add(name);
    if (isSet(disk.managedDisk)) out.push(...managedDisk(rule, disk.managedDisk, `${p}.managedDisk`, false));
    const lun = disk.lun;
    if (!isSet(lun)) out.push(refuse(rule, 'FieldValueRequired', p, '', 'LUN should not be nil'));
    else if (typeof lun !== 'number' || lun < 0 || lun > 63) out.push(refuse(rule, 'FieldValueInvalid', p, lun, 'logical unit number must be between 0 and 63'));
    else if (luns.has(lun)) out.push(refuse(rule, 'FieldValueDuplicate', p, lun, '', 'give each data disk its own lun'));
    else luns.add(lun);
    out.push(...cachingType(rule, disk.cachingType, p, disk.managedDisk));
  }
  return out;
}

function diagnostics(rule: string, value: unknown): WebhookError[] {
  const boot = at(value, 'boot');
  if (!isSet(value) || !isSet(boot)) return [];
  const b = rec(boot);
  const uri = str(at(b, 'userManaged.storageAccountURI')) ?? '';
  switch (b.storageAccountType) {
    case 'UserManaged':
      if (!isSet(b.userManaged)) return [refuse(rule, 'FieldValueRequired', 'diagnostics.UserManaged', '', "userManaged must be specified when storageAccountType is 'UserManaged'")];
      if (uri === '') return [refuse(rule, 'FieldValueRequired', 'diagnostics.StorageAccountURI', '', "StorageAccountURI cannot be empty when storageAccountType is 'UserManaged'")];
      return [];
    case 'Managed':
    case 'Disabled':
      // Upstream names 'Managed' for both.
      return isSet(b.userManaged) && uri !== '' ? [refuse(rule, 'FieldValueInvalid', 'diagnostics.StorageAccountURI', uri, "StorageAccountURI cannot be set when storageAccountType is 'Managed'")] : [];
    default:
      return [];
  }
}

function network(rule: string, spec: Obj): WebhookError[] {
  const nics = list(spec.networkInterfaces);
  const p = 'networkInterfaces';
  if (nics.length > 0 && str(spec.subnetName)) return [refuse(rule, 'FieldValueInvalid', p, nics, 'cannot set both networkInterfaces and machine subnetName', 'move subnetName into the network interface')];
  if (nics.length > 0 && isSet(spec.acceleratedNetworking)) return [refuse(rule, 'FieldValueInvalid', p, nics, 'cannot set both networkInterfaces and machine acceleratedNetworking', 'move acceleratedNetworking into the network interface')];
  if (nics.some((n) => !(Number(rec(n).privateIPConfigs ?? 0) >= 1))) return [refuse(rule, 'FieldValueInvalid', p, nics, 'number of privateIPConfigs per interface must be at least 1')];
  return [];
}

function systemAssignedIdentityRole(rule: string, spec: Obj): WebhookError[] {
  const role = spec.systemAssignedIdentityRole;
  const r = rec(role);
  const system = spec.identity === 'SystemAssigned';
  const out: WebhookError[] = [];
  if (str(spec.roleAssignmentName) && isSet(role) && str(r.name)) out.push(refuse(rule, 'FieldValueInvalid', 'systemAssignedIdentityRole', r.name, 'cannot set both roleAssignmentName and systemAssignedIdentityRole.name', 'drop the deprecated roleAssignmentName'));
  if (system && isSet(role)) {
    if (!str(r.definitionID)) out.push(refuse(rule, 'FieldValueInvalid', 'spec.systemAssignedIdentityRole.definitionID', str(r.definitionID) ?? '', 'the definitionID field cannot be empty'));
    if (!str(r.scope)) out.push(refuse(rule, 'FieldValueInvalid', 'spec.systemAssignedIdentityRole.scope', str(r.scope) ?? '', 'the scope field cannot be empty'));
  }
  if (!system && isSet(role)) out.push(refuse(rule, 'FieldValueForbidden', 'spec.role', '', 'systemAssignedIdentityRole can only be set when identity is set to SystemAssigned', 'set identity: SystemAssigned, or drop systemAssignedIdentityRole'));
  return out;
}

const vmExtensionsPath = 'AzureMachineTemplate.spec.template.spec.vmExtensions';

function vmExtensions(rule: string, spec: Obj): WebhookError[] {
  if (spec.disableExtensionOperations !== true || list(spec.vmExtensions).length === 0) return [];
  return [refuse(rule, 'FieldValueForbidden', vmExtensionsPath, '', 'VMExtensions must be empty when DisableExtensionOperations is true')];
}

/** `validateAzureMachineSpec`, the checks AzureMachine and AzureMachineTemplate share, in upstream's order. */
function azureMachineSpecErrors(prefix: string, spec: Obj): WebhookError[] {
  const capacity = spec.capacityReservationGroupID;
  return [
    ...image(`${prefix}.image`, spec.image),
    ...osDisk(`${prefix}.os-disk`, spec.osDisk),
    ...confidentialCompute(`${prefix}.security-profile`, spec),
    ...sshKey(`${prefix}.ssh-public-key`, spec.sshPublicKey),
    ...userAssignedIdentities(`${prefix}.identity`, spec),
    ...dataDisks(`${prefix}.data-disks`, spec.dataDisks),
    ...diagnostics(`${prefix}.diagnostics`, spec.diagnostics),
    ...network(`${prefix}.network-interfaces`, spec),
    ...systemAssignedIdentityRole(`${prefix}.identity`, spec),
    ...(isSet(capacity) && !isAzureResourceID(str(capacity) ?? '') ? [refuse(`${prefix}.capacity-reservation`, 'FieldValueInvalid', 'capacityReservationGroupID', capacity, 'must be a valid Azure resource ID')] : []),
    ...vmExtensions(`${prefix}.vm-extensions`, spec),
  ];
}

function azureMachineCreate(o: Obj): WebhookError[] {
  const spec = rec(o.spec);
  const out = azureMachineSpecErrors(m, spec);
  // ValidateSystemAssignedIdentity with the role's name (after the defaults moved roleAssignmentName there).
  const name = str(at(spec, 'systemAssignedIdentityRole.name')) ?? '';
  if (spec.identity === 'SystemAssigned') {
    if (!isGoogleUuid(name)) out.push(refuse(`${m}.identity`, 'FieldValueInvalid', 'roleAssignmentName', name, 'Role assignment name must be a valid GUID. It is optional and will be auto-generated when not specified.'));
  } else if (name !== '') out.push(refuse(`${m}.identity`, 'FieldValueForbidden', 'roleAssignmentName', '', 'Role assignment name should only be set when using system assigned identity.'));
  return out;
}

function azureMachineTemplateCreate(o: Obj): WebhookError[] {
  const spec = rec(at(o, 'spec.template.spec'));
  const out = azureMachineSpecErrors(mt, spec);
  const p = 'AzureMachineTemplate.spec.template.spec';
  const shared = 'a template is shared by every machine: leave the role assignment name out, the controller generates one per machine';
  if (str(spec.roleAssignmentName)) out.push(refuse(`${mt}.role-assignment-name`, 'FieldValueInvalid', `${p}.roleAssignmentName`, o, 'AzureMachineTemplate spec.template.spec.roleAssignmentName field can\'t be set', shared));
  if (str(at(spec, 'systemAssignedIdentityRole.name'))) {
    out.push(refuse(`${mt}.role-assignment-name`, 'FieldValueInvalid', `${p}.systemAssignedIdentityRole.name`, o, 'AzureMachineTemplate spec.template.spec.systemAssignedIdentityRole.name field can\'t be set', shared));
  }
  const nics = list(spec.networkInterfaces);
  if (nics.length > 0 && str(spec.subnetName)) out.push(refuse(`${mt}.network-interfaces`, 'FieldValueInvalid', `${p}.networkInterfaces`, nics, 'cannot set both NetworkInterfaces and machine SubnetName'));
  if (nics.length > 0 && isSet(spec.acceleratedNetworking)) out.push(refuse(`${mt}.network-interfaces`, 'FieldValueInvalid', `${p}.acceleratedNetworking`, nics, 'cannot set both NetworkInterfaces and machine AcceleratedNetworking'));
  for (const n of nics.map(rec)) {
    const v = n.privateIPConfigs ?? 0;
    if (!(Number(v) >= 1)) out.push(refuse(`${mt}.network-interfaces`, 'FieldValueInvalid', `${p}.networkInterfaces.privateIPConfigs`, v, 'networkInterface privateIPConfigs must be set to a minimum value of 1'));
  }
  // The template webhook repeats the extension check of validateAzureMachineSpec (the API server prints both).
  out.push(...vmExtensions(`${mt}.vm-extensions`, spec));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// AzureMachine ValidateUpdate (azuremachine_webhook.go): webhookutils.ValidateImmutable over most of the spec.

/** Go's zero value of a pointer or slice field (nil), as `reflect.Value.IsZero` sees it. */
const nilZero = (v: unknown): boolean => !isSet(v);
const stringZero = (v: unknown): boolean => !str(v);
const boolZero = (v: unknown): boolean => v !== true;

function azureMachineUpdate(before: Obj, after: Obj): WebhookError[] {
  const b = rec(before.spec);
  const a = rec(after.spec);
  const rule = `${m}.immutable`;
  const hint = 'an AzureMachine cannot change this in place: change the machine template and let the owner roll the machines';
  const out: WebhookError[] = [];
  const check = (field: string, path: string, zero: (v: unknown) => boolean): void => {
    out.push(...immutable(rule, path, b[field], a[field], hint, zero, zero === boolZero ? false : zero === nilZero ? null : ''));
  };
  check('image', 'spec.image', nilZero);
  check('identity', 'spec.identity', stringZero);
  check('systemAssignedIdentityRole', 'spec.systemAssignedIdentityRole', nilZero);
  check('userAssignedIdentities', 'spec.userAssignedIdentities', nilZero);
  check('roleAssignmentName', 'spec.roleAssignmentName', stringZero);
  check('osDisk', 'spec.osDisk', (v) => !defined(v));
  check('dataDisks', 'spec.dataDisks', nilZero);
  check('sshPublicKey', 'spec.sshPublicKey', stringZero);
  check('allocatePublicIP', 'spec.allocatePublicIP', boolZero);
  check('enableIPForwarding', 'spec.enableIPForwarding', boolZero);
  // ValidateZeroTransition: accelerated networking may only be reset to nil (upstream issue #3518).
  if (isSet(a.acceleratedNetworking)) check('acceleratedNetworking', 'Spec.AcceleratedNetworking', nilZero);
  check('spotVMOptions', 'Spec.SpotVMOptions', nilZero);
  check('securityProfile', 'Spec.SecurityProfile', nilZero);
  if (isSet(b.diagnostics)) check('diagnostics', 'spec.diagnostics', nilZero);
  if (!same(a.networkInterfaces, b.networkInterfaces)) {
    // Upstream defaults the old object's interfaces (the legacy fields may have moved there), and the reconciler
    // fills the first interface's subnet when it was left blank.
    const oldSpec = structuredClone(b);
    networkInterfaceDefaults(oldSpec);
    const old = list(oldSpec.networkInterfaces).map(rec);
    const now = list(a.networkInterfaces).map(rec);
    if (old[0] && now[0] && !str(old[0].subnetName) && str(now[0].subnetName)) old[0].subnetName = now[0].subnetName;
    if (!same(now, old)) out.push(refuse(rule, 'FieldValueInvalid', 'spec.networkInterfaces', a.networkInterfaces ?? null, 'field is immutable', hint));
  }
  check('capacityReservationGroupID', 'spec.capacityReservationGroupID', nilZero);
  check('disableExtensionOperations', 'spec.disableExtensionOperations', nilZero);
  if (isSet(b.disableVMBootstrapExtension)) check('disableVMBootstrapExtension', 'spec.disableVMBootstrapExtension', nilZero);
  return out;
}

const none = (): WebhookError[] => [];

export const capzMachineWebhooks: readonly Webhook[] = [
  {
    group: infra,
    kind: 'AzureMachine',
    source: `${capz} internal/webhooks/azuremachine_webhook.go, azuremachine_validation.go, azureimage_validation.go (v1.25.1, v1.26.0)`,
    defaults: azureMachineDefaults,
    create: azureMachineCreate,
    update: azureMachineUpdate,
    createOnUpdate: false,
  },
  {
    group: infra,
    kind: 'AzureMachineTemplate',
    source: `${capz} internal/webhooks/azuremachinetemplate_webhook.go, azuremachine_validation.go (v1.25.1, v1.26.0)`,
    defaults: azureMachineTemplateDefaults,
    create: azureMachineTemplateCreate,
    // spec.template.spec immutability is the template rule (template-immutability.ts).
    update: none,
    createOnUpdate: false,
  },
];
