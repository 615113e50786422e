// What the migrate tool (tools/migrate) loads for this service: the list lives with the service.
export { SERVICE_DATABASE } from '@onramp/settlement-feature';
