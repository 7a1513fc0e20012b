# vivado_stubs.tcl: stand-ins for the Vivado commands the package's scripts
# call, so tclsh can run build.tcl (and kiln.xdc) without Vivado.  Each call
# is appended to the file named by ::env(KILN_TCL_LOG), one line per call:
# the command and its arguments separated by \x1f.  A command not defined
# here is an error (tclsh's own), so a misspelt Vivado command fails the test.
#   tclsh vivado_stubs.tcl SCRIPT...
namespace eval ipx {}
set ::kiln_log [open $::env(KILN_TCL_LOG) w]
proc record {args} { puts $::kiln_log [join $args "\x1f"] }

# commands whose result is their last argument (a name, a list of objects)
foreach c {get_bd_intf_pins get_bd_pins get_bd_cells get_bd_addr_spaces get_bd_addr_segs
           get_files get_runs get_pins get_timing_paths} {
    proc $c {args} "record $c {*}\$args; return \[lindex \$args end\]"
}
# commands whose result is not used
foreach c {create_project set_property update_ip_catalog create_bd_design apply_bd_automation
           connect_bd_intf_net connect_bd_net assign_bd_address validate_bd_design save_bd_design
           add_files launch_runs wait_on_run open_run report_timing_summary set_false_path
           ipx::open_core ipx::check_integrity ipx::unload_core} {
    proc $c {args} "record $c {*}\$args; return {}"
}
proc current_project {args} { record current_project {*}$args; return kiln }
proc current_fileset {args} { record current_fileset {*}$args; return sources_1 }
proc ipx::current_core {args} { record ipx::current_core {*}$args; return core }
proc create_bd_cell {args} { record create_bd_cell {*}$args; return [lindex $args end] }
proc make_wrapper {args} { record make_wrapper {*}$args; return kiln_bd_wrapper.v }
proc get_property {name args} {
    record get_property $name {*}$args
    switch -- $name {
        PROGRESS { return "100%" }
        SLACK { return 0.25 }
        DIRECTORY { return /nonexistent/impl_1 }
    }
    error "get_property $name: not stubbed"
}
# file copy and exec are recorded, not run; the other file subcommands are Tcl's
rename file _kiln_file
proc file {sub args} {
    if {$sub eq "copy"} { record file copy {*}$args; return }
    return [_kiln_file $sub {*}$args]
}
rename exec _kiln_exec
proc exec {args} { record exec {*}$args; return }
rename cd _kiln_cd
proc cd {dir} { record cd $dir }

foreach script $argv {
    record source $script
    set argv {}
    uplevel #0 [list source $script]
}
close $::kiln_log
