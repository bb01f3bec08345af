/** deploy/test: the chart, skaffold, images, dashboards and alerts checked against the services as they are. */
module.exports = { ...require('../jest.config.base.cjs'), rootDir: __dirname, displayName: 'deploy' };
