module.exports = { ...require('../../jest.config.base.cjs'), rootDir: __dirname, displayName: 'push-sender' };
