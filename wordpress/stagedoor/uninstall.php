<?php
/**
 * Deleting the plugin (not deactivating it) removes its one option. Pages
 * keep their shortcodes and blocks as text, harmless without the plugin.
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

delete_option( 'stagedoor_settings' );
