import Foundation

/// The systemd services that keep a spare markup renderer ready (`swiftprint-markup --spare`,
/// `SpareRenderer`): one for the CUPS filter's HTML and Markdown jobs, as the user cupsd runs
/// filters as, and one a user enables for their own `swiftprint` runs. `install` writes both and
/// enables neither; a spare serves one job and exits, and systemd starts the next at once.
///
///     systemctl enable --now swiftprint-markup-spare.service          # the queue's filter
///     systemctl --user enable --now swiftprint-markup-spare.service   # a user's runs
///
/// `disable --now` turns either off; `SWIFTPRINT_MARKUP_SPARE=0` makes one run ignore a spare.
struct SpareRendererUnits {
    /// Where the spare is: `LIBEXEC/swiftprint-markup`.
    var libexec: String
    /// The user cupsd runs filters as, and the folder it gives them as TMPDIR (cups-files.conf's
    /// `User` and `TempDir`): the filter looks for its spare in `TMPDIR/swiftprint-UID`.
    var filterUser = "lp"
    var filterTempDir = "/var/spool/cups/tmp"

    static let name = "swiftprint-markup-spare.service"

    var forFilter: String {
        """
        [Unit]
        Description=swiftprint: a spare markup renderer for the next HTML job of the CUPS filter
        After=cups.service

        [Service]
        User=\(filterUser)
        Environment=TMPDIR=\(filterTempDir)
        ExecStart=\(libexec)/swiftprint-markup --spare
        # Each spare serves one job and exits; the next starts at once.
        Restart=always
        RestartSec=0

        [Install]
        WantedBy=cups.service

        """
    }

    var forUser: String {
        """
        [Unit]
        Description=swiftprint: a spare markup renderer for this user's next HTML job

        [Service]
        ExecStart=\(libexec)/swiftprint-markup --spare
        # Each spare serves one run and exits; the next starts at once.
        Restart=always
        RestartSec=0

        [Install]
        WantedBy=default.target

        """
    }
}
