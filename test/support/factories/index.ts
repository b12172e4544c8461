/** Test data made as a client makes it (through the API), and the churches and tokens behind it. */
export * from './calendar';
export * from './create';
export * from './giving';
export * from './people';
export * from './platform';
export * from './tenants';
