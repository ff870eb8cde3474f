/** A naming template that does not parse or render; the message is CAPI's wrapped Go error text. */
export class NamingTemplateError extends Error {}
