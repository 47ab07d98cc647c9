/** The task manager faultline ships (R20), named by path like any service of your own. */
export { tasks as default } from 'faultline/testing';
