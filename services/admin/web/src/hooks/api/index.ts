export * from './auth';
export * from './features';
export * from './tenant';
export * from './use-admin-query';
