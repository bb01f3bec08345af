module.exports = { ...require('../../jest.config.base.cjs'), rootDir: __dirname, displayName: 'realtime' };
